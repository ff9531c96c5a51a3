import CShim
import Primitives
import Synchronization

/// One controlled execution of a scenario: a ``SeamController`` that runs exactly one of its
/// threads at a time and, at every seam operation, lets a strategy pick who runs next.
///
/// Its state is touched only by the running thread: control passes from thread to thread
/// through a ``HandoffBackend`` (futexes, for OS threads), whose release and acquire order
/// every access, so the state needs no lock. A decision that keeps the running thread costs no handoff.
final class Execution: SeamController, @unchecked Sendable {
    struct Limits {
        var maxThreads = 64
        var maxSteps = 20_000
        var spuriousWakeups = true
        var stallTimeout: Duration = .seconds(20)
        var spinsBeforeSleeping: UInt32 = 4_000
        /// The CPU every thread of the execution is pinned to, so that a handoff wakes a
        /// thread on the same CPU (about 6 µs on Linux, against 70 µs across CPUs).
        var cpu: Int32? = nil
        /// Lane threads that run the scenario's task jobs.
        var executorLanes = 2
    }

    private enum Decision {
        case run(Int)
        case allFinished
        case failed
    }

    private let limits: Limits
    private var strategy: any SchedulingStrategy
    private let crashReport: UnsafeMutablePointer<cshim_crash_report>
    private let stepBytes: UnsafeMutablePointer<UInt8>
    private let stepByteCapacity: Int
    private var stepByteCount = 0
    private let replay: [EncodedStep]?
    private let handoff: any HandoffBackend

    private var threads: [ThreadRecord] = []
    private var mutexes: [ObjectIdentifier: MutexModel] = [:]
    private var conditionWaiters: [ObjectIdentifier: [Int]] = [:]
    private var objectNames: [ObjectIdentifier: String] = [:]
    private var objectCounts: [String: Int] = [:]
    private var exiting: Set<Int> = []
    private var aborting = false
    private var clock: UInt64 = 1_000_000_000
    private var tryLockResult = false
    private var lastSpawned = 0
    private let progress = Atomic<Int>(0)
    private let foreignJob = Atomic<Bool>(false)
    private let foreignJobOrigin = Mutex<String?>(nil)
    private var asyncServices: AsyncServices?
    private let runningThread = Atomic<Int>(0)
    private let done = Atomic<Bool>(false)
    /// Threads the harness spawned for the scenario and its tasks that their owner has not
    /// joined yet.
    private var unjoinedHarnessThreads: [SeamThread] = []

    /// The steps taken so far; complete once ``run(_:)`` returned.
    private(set) var trace: [TraceStep] = []
    /// Why the execution failed, if it did.
    private(set) var failure: ExecutionFailure?

    /// Creates an execution; should one of its threads crash, the process prints
    /// `crashPrefix`, the schedule so far in base64url, and `crashSuffix`.
    init(strategy: any SchedulingStrategy, replay: [EncodedStep]?, limits: Limits, crashPrefix: String, crashSuffix: String) {
        self.strategy = strategy
        self.replay = replay
        self.limits = limits
        handoff = FutexHandoff(threadCount: limits.maxThreads, spinsBeforeSleeping: limits.spinsBeforeSleeping)
        stepByteCapacity = 3 * (limits.maxSteps + 2 * limits.maxThreads + 16)
        stepBytes = .allocate(capacity: stepByteCapacity)
        guard let report = cshim_crash_report_create(crashPrefix, crashSuffix, stepBytes) else {
            preconditionFailure("the harness ran out of memory creating an execution")
        }
        crashReport = report
        cshim_install_crash_reporter()
    }

    deinit {
        cshim_crash_report_destroy(crashReport)
        stepBytes.deallocate()
    }

    /// The strategy, as it is after the execution (strategies carry state across executions).
    var finalStrategy: any SchedulingStrategy { strategy }

    // MARK: Driving

    /// Runs `body` as thread 0 and returns when every thread has finished, the execution
    /// failed and wound down, or it stalled.
    func run(_ body: @escaping @Sendable () -> Void) {
        threads = [ThreadRecord(state: .ready(.start, nil), name: "T0")]
        strategy.threadCreated(0)
        switch Seam.spawnThread(controlledBy: self, as: SeamThreadID(rawValue: 0), body) {
        case .failure(let error):
            preconditionFailure("the harness could not start a scenario thread: \(error)")
        case .success(let root):
            handoff.resume(0)
            waitUntilDone()
            if done.load(ordering: .acquiring) {
                _ = try? root.join()
                joinAbandonedHarnessThreads()
            }
        }
    }

    private func waitUntilDone() {
        var lastProgress = -1
        while !handoff.awaitFinish(timeout: limits.stallTimeout) {
            let current = progress.load(ordering: .relaxed)
            if current == lastProgress {
                let seconds = Double(limits.stallTimeout.components.seconds)
                failure = .stalled(thread: runningThread.load(ordering: .relaxed), seconds: seconds)
                return
            }
            lastProgress = current
        }
    }

    // MARK: SeamController

    func lock(_ mutex: SeamMutex, at location: SeamLocation) {
        point(.lock(ObjectIdentifier(mutex), recursive: mutex.kind == .recursive), location)
    }

    func tryLock(_ mutex: SeamMutex, at location: SeamLocation) -> Bool {
        point(.tryLock(ObjectIdentifier(mutex), recursive: mutex.kind == .recursive), location)
        return tryLockResult
    }

    func unlock(_ mutex: SeamMutex, at location: SeamLocation) {
        point(.unlock(ObjectIdentifier(mutex)), location)
    }

    func wait(
        on condition: SeamCondition,
        releasing mutex: SeamMutex,
        deadline: SeamInstant?,
        at location: SeamLocation
    ) -> SeamWaitResult {
        let me = point(
            .wait(condition: ObjectIdentifier(condition), mutex: ObjectIdentifier(mutex), deadline: deadline?.nanoseconds),
            location
        )
        let result = threads[me].waitResult
        pthread_testcancel()
        return result
    }

    func signal(_ condition: SeamCondition, at location: SeamLocation) {
        point(.signal(ObjectIdentifier(condition)), location)
    }

    func broadcast(_ condition: SeamCondition, at location: SeamLocation) {
        point(.broadcast(ObjectIdentifier(condition)), location)
    }

    func willAccessAtomic(_ cell: ObjectIdentifier, _ access: SeamAtomicAccess, at location: SeamLocation) {
        point(.atomic(cell, access), location)
    }

    func threadWillSpawn(at location: SeamLocation) -> SeamThreadID {
        point(.spawn, location)
        return SeamThreadID(rawValue: lastSpawned)
    }

    func threadSpawnFailed(_ thread: SeamThreadID) {
        withCancellationDisabled { _ in threads[thread.rawValue].state = .finished }
    }

    func threadDidStart(_ thread: SeamThreadID) {
        withCancellationDisabled { _ in
            let me = thread.rawValue
            cshim_set_thread_crash_report(crashReport)
            if me == 0, let cpu = limits.cpu {
                _ = cshim_pin_current_thread_to_cpu(cpu)
            }
            handoff.park(me)
            if aborting { exitForAbort(me) }
            _ = perform(me)
        }
    }

    func threadWillExit(_ thread: SeamThreadID) {
        withCancellationDisabled { _ in
            let me = thread.rawValue
            if aborting {
                threads[me].state = .finished
                handOffDuringAbort()
                return
            }
            record(me, .exit, target: nil, location: nil)
            threads[me].state = .finished
            switch decide(running: nil) {
            case .run(let next):
                wakeThread(next)
            case .allFinished:
                finish()
            case .failed:
                aborting = true
                handOffDuringAbort()
            }
        }
    }

    func join(_ thread: SeamThreadID, at location: SeamLocation) {
        point(.join(thread.rawValue), location)
    }

    func willCancel(_ thread: SeamThreadID, at location: SeamLocation) {
        point(.cancel(thread.rawValue), location)
    }

    func cancellationPoint(at location: SeamLocation) {
        point(.cancellationPoint, location)
    }

    func yield(at location: SeamLocation) {
        point(.yield, location)
    }

    func now() -> SeamInstant {
        SeamInstant(nanoseconds: clock)
    }

    func sleep(until deadline: SeamInstant, at location: SeamLocation) {
        point(.sleep(until: deadline.nanoseconds), location)
    }

    func willResumeContinuation(at location: SeamLocation) {
        point(.resume, location)
    }

    func enterNonPreemptibleRegion() {
        withCancellationDisabled { _ in threads[currentThread()].nonPreemptibleDepth += 1 }
    }

    func exitNonPreemptibleRegion() {
        withCancellationDisabled { _ in threads[currentThread()].nonPreemptibleDepth -= 1 }
    }

    func wake(at deadline: SeamInstant, _ wake: @escaping @Sendable () -> Void) {
        services().addTimer(at: deadline, wake)
    }

    // MARK: Threads the harness spawns

    /// Records that `thread`, spawned by the harness itself (a scenario thread, an executor
    /// lane), must be joined: by its owner, or by ``run(_:)`` once a failed execution has
    /// wound down, because then the code that would have joined it was unwound.
    func spawnedHarnessThread(_ thread: SeamThread) {
        withCancellationDisabled { _ in unjoinedHarnessThreads.append(thread) }
    }

    /// Records that the owner of a thread passed to ``spawnedHarnessThread(_:)`` joined it.
    func joinedHarnessThread(_ thread: SeamThread) {
        withCancellationDisabled { _ in unjoinedHarnessThreads.removeAll { $0.controlledID == thread.controlledID } }
    }

    /// Reaps the harness's threads that a failure kept their owner from joining; every
    /// thread of the execution has finished.
    private func joinAbandonedHarnessThreads() {
        for thread in unjoinedHarnessThreads {
            do {
                try thread.join()
            } catch {
                preconditionFailure("joining an abandoned harness thread failed: \(error)")
            }
        }
        unjoinedHarnessThreads = []
    }

    // MARK: Tasks

    /// The execution's task executor and timers, started on first use by the calling
    /// (controlled) thread.
    func services() -> AsyncServices {
        if let asyncServices { return asyncServices }
        let services = AsyncServices(execution: self)
        asyncServices = services
        services.start(lanes: limits.executorLanes)
        return services
    }

    /// Lets the tasks finish and the executor's threads exit; called as thread 0 ends.
    func closeServices() {
        asyncServices?.close()
    }

    /// Picks which of `count` queued jobs the calling lane runs: a decision of the
    /// strategy, recorded in the trace (and in tokens) when there is a choice.
    func chooseJob(among count: Int) -> Int {
        guard count > 1 else { return 0 }
        return withCancellationDisabled { _ in
            let me = currentThread()
            if aborting { return 0 }
            let index: Int
            if let replay {
                let step = trace.count
                guard step < replay.count, replay[step].kind == .chooseJob, let choice = replay[step].choice, choice < count else {
                    failure = .replayDiverged(step: step, detail: "the code chose among \(count) queued jobs; the token has \(step < replay.count ? "\(replay[step])" : "no more steps")")
                    aborting = true
                    exitForAbort(me)
                }
                index = choice
            } else {
                let options = (0..<count).map { Candidate(thread: Self.jobCandidateBase + $0, isSpuriousWake: false) }
                index = strategy.choose(among: options, running: nil, step: trace.count)
            }
            record(me, .chooseJob, target: "job \(index + 1) of \(count)", choice: index, location: nil)
            return index
        }
    }

    /// When nothing can run while tasks are outstanding, one of them may be waiting for work
    /// outside the harness: gives a job enqueued from elsewhere up to a second (real time;
    /// Dispatch's pool can take that long to grow on Linux) to show up, so the escape is reported as such rather than as a deadlock. Returns
    /// whether one did (the next decision then fails).
    private func awaitForeignJob() -> Bool {
        guard asyncServices != nil else { return false }
        for _ in 0..<1_000 {
            if foreignJob.load(ordering: .acquiring) { return true }
            _ = cshim_sleep_until_monotonic(cshim_monotonic_now_ns() + 1_000_000)
        }
        return false
    }

    /// Job choices reach strategies as candidates numbered from here, clear of threads.
    private static let jobCandidateBase = 1_000

    /// A job was enqueued from a thread this execution does not control: it escaped the
    /// harness (`Task {}`, `Task.detached`, `MainActor`, a foreign thread). Safe to call
    /// from any thread; the execution fails at its next decision.
    func noteForeignJob(from origin: String) {
        foreignJobOrigin.withLock { $0 = $0 ?? origin }
        foreignJob.store(true, ordering: .releasing)
    }

    /// Fails the execution because a task's body threw `error`, without ending the lane
    /// thread mid-job: the failure takes effect at the next decision.
    func taskThrew(_ error: any Error) {
        withCancellationDisabled { _ in
            if failure == nil { failure = .taskThrew(error: "\(error)") }
        }
    }

    // MARK: Failing from a thread

    /// Records `failure` on behalf of the running thread and ends the thread; the other
    /// threads are wound down one at a time.
    func fail(_ failure: ExecutionFailure) -> Never {
        let me = currentThread()
        var previous: Int32 = 0
        pthread_setcancelstate(Int32(PTHREAD_CANCEL_DISABLE), &previous)
        if self.failure == nil { self.failure = failure }
        aborting = true
        exitForAbort(me)
    }

    // MARK: Scheduling

    /// A scheduling point of the calling thread: returns when it has been chosen and has
    /// performed `operation`. Returns the thread's index.
    @discardableResult
    private func point(_ operation: PendingOperation, _ location: SeamLocation) -> Int {
        withCancellationDisabled { cancellable in
            let me = currentThread()
            if aborting {
                performDuringAbort(me, operation)
                return me
            }
            threads[me].state = .ready(operation, location)
            threads[me].cancellable = cancellable
            var running: Int? = me
            while true {
                switch decide(running: running) {
                case .run(let next):
                    if next != me { switchTo(next, from: me) }
                case .allFinished:
                    preconditionFailure("the harness found every thread finished while T\(me) runs")
                case .failed:
                    aborting = true
                    exitForAbort(me)
                }
                if perform(me) {
                    stepAsideForUrgentThread(me, location)
                    return me
                }
                running = nil
            }
        }
    }

    /// When `me`'s operation unblocked a thread in a non-preemptible region, that thread
    /// runs at once: it holds a runtime lock that `me` may need before its next
    /// scheduling point.
    private func stepAsideForUrgentThread(_ me: Int, _ location: SeamLocation) {
        guard threads[me].nonPreemptibleDepth == 0, let urgent = urgentCandidate() else { return }
        threads[me].state = .ready(.handoff, location)
        switchTo(urgent, from: me)
        _ = perform(me)
    }

    /// The first thread in a non-preemptible region that can run.
    private func urgentCandidate() -> Int? {
        threads.indices.first { index in
            guard threads[index].nonPreemptibleDepth > 0, case .ready(let operation, _) = threads[index].state else { return false }
            return isEnabled(operation, for: index)
        }
    }

    private func currentThread() -> Int {
        guard let thread = Seam.currentThread else {
            preconditionFailure("a harness operation ran on a thread the harness does not control")
        }
        return thread.rawValue
    }

    /// Runs `body` with cancellation disabled, telling it whether it was enabled; restoring
    /// the state afterwards is where a pending asynchronous cancellation acts.
    private func withCancellationDisabled<Result>(_ body: (_ wasEnabled: Bool) -> Result) -> Result {
        var previous: Int32 = 0
        pthread_setcancelstate(Int32(PTHREAD_CANCEL_DISABLE), &previous)
        let result = body(previous == Int32(PTHREAD_CANCEL_ENABLE))
        pthread_setcancelstate(previous, &previous)
        return result
    }

    private func wakeThread(_ next: Int) {
        handoff.resume(next)
    }

    private func switchTo(_ next: Int, from me: Int) {
        wakeThread(next)
        handoff.park(me)
        if aborting && !exiting.contains(me) { exitForAbort(me) }
    }

    private func finish() {
        done.store(true, ordering: .releasing)
        handoff.finish()
    }

    private func exitForAbort(_ me: Int) -> Never {
        exiting.insert(me)
        pthread_exit(nil)
    }

    /// Picks the thread that runs next; applies the scheduler's own steps (advancing the
    /// clock, spurious wake-ups) on the way.
    private func decide(running: Int?) -> Decision {
        while true {
            if foreignJob.load(ordering: .acquiring), failure == nil {
                let origin = foreignJobOrigin.withLock { $0 } ?? "an unknown thread"
                failure = .nondeterminism(
                    "a job was enqueued from \(origin), which the harness does not control: an escape through Task {}, Task.detached, MainActor, Dispatch or a foreign thread"
                )
            }
            if failure != nil { return .failed }
            var candidates: [Candidate] = []
            var spurious: [Candidate] = []
            for index in threads.indices {
                switch threads[index].state {
                case .ready(let operation, _):
                    if isEnabled(operation, for: index) { candidates.append(Candidate(thread: index, isSpuriousWake: false)) }
                case .waiting:
                    if limits.spuriousWakeups { spurious.append(Candidate(thread: index, isSpuriousWake: true)) }
                case .running, .finished:
                    break
                }
            }
            // A thread in a non-preemptible region (running code under a runtime lock) runs
            // whenever it can: one that blocked there lets the thread it waits for run only
            // to that thread's next scheduling point.
            if let urgent = urgentCandidate() {
                return .run(urgent)
            }
            if candidates.isEmpty {
                if advanceClock() { continue }
                if threads.allSatisfy(\.isFinished) { return .allFinished }
                if awaitForeignJob() { continue }
                failure = stuckFailure()
                return .failed
            }
            if trace.count >= limits.maxSteps {
                failure = .stepBoundExceeded(limits.maxSteps)
                return .failed
            }
            // A yield is fair: when another thread can run, one does, so spin loops that
            // yield end under every strategy.
            if let running, case .ready(.yield, _) = threads[running].state, candidates.count > 1 {
                candidates.removeAll { $0.thread == running }
            }
            candidates += spurious
            let runningCandidate = running.flatMap { thread in candidates.contains { $0.thread == thread && !$0.isSpuriousWake } ? thread : nil }
            guard let chosen = choose(among: candidates, running: runningCandidate) else { return .failed }
            if chosen.isSpuriousWake {
                wake(chosen.thread, result: .signalled, kind: .spuriousWake)
                continue
            }
            return .run(chosen.thread)
        }
    }

    private func choose(among candidates: [Candidate], running: Int?) -> Candidate? {
        guard let replay else {
            return candidates[strategy.choose(among: candidates, running: running, step: trace.count)]
        }
        let step = trace.count
        guard step < replay.count else {
            failure = .replayDiverged(step: step, detail: "the execution goes on past the token's last step (\(replay.count) steps)")
            return nil
        }
        let expected = replay[step]
        let wanted = Candidate(thread: expected.thread ?? -1, isSpuriousWake: expected.kind == .spuriousWake)
        guard candidates.contains(wanted) else {
            let runnable = candidates.filter { !$0.isSpuriousWake }.map { "T\($0.thread) (\(describePending($0.thread)))" }
            failure = .replayDiverged(
                step: step,
                detail: "the token runs T\(wanted.thread) (\(expected.kind)) but it cannot run here; runnable: \(runnable.joined(separator: ", "))"
            )
            return nil
        }
        return wanted
    }

    private func isEnabled(_ operation: PendingOperation, for thread: Int) -> Bool {
        switch operation {
        case .lock(let mutex, let recursive):
            guard let owner = mutexes[mutex]?.owner else { return true }
            return recursive && owner == thread
        case .reacquire(let mutex):
            return mutexes[mutex]?.owner == nil
        case .join(let target):
            return threads[target].isFinished
        case .sleep(let deadline):
            return clock >= deadline
        default:
            return true
        }
    }

    /// When nothing can run, moves virtual time to the earliest deadline. Returns whether it did.
    private func advanceClock() -> Bool {
        var earliest: UInt64?
        for thread in threads {
            switch thread.state {
            case .waiting(_, _, let deadline?, _):
                earliest = min(earliest ?? deadline, deadline)
            case .ready(.sleep(let deadline), _) where deadline > clock:
                earliest = min(earliest ?? deadline, deadline)
            default:
                break
            }
        }
        guard let earliest else { return false }
        let advance = earliest > clock ? earliest - clock : 0
        clock = max(clock, earliest)
        record(nil, .advanceClock, target: "+\(Double(advance) / 1_000_000) ms", location: nil)
        for index in threads.indices {
            if case .waiting(_, _, let deadline?, _) = threads[index].state, deadline <= clock {
                wake(index, result: .timedOut, kind: nil)
            }
        }
        return true
    }

    /// Moves a condition waiter to re-acquiring its mutex.
    private func wake(_ thread: Int, result: SeamWaitResult, kind: OperationKind?) {
        guard case .waiting(let condition, let mutex, _, let location) = threads[thread].state else { return }
        conditionWaiters[condition]?.removeAll { $0 == thread }
        threads[thread].state = .ready(.reacquire(mutex: mutex), location)
        threads[thread].waitResult = result
        if let kind { record(thread, kind, target: name(condition, "condition"), location: location) }
    }

    /// Performs the pending operation of `me`, which was chosen. Returns false when the
    /// operation blocks the thread (a condition wait).
    private func perform(_ me: Int) -> Bool {
        guard case .ready(let operation, let location) = threads[me].state else {
            preconditionFailure("T\(me) was chosen but has no pending operation")
        }
        record(me, operation.kind, target: target(of: operation), location: location)
        threads[me].state = .running
        runningThread.store(me, ordering: .relaxed)
        switch operation {
        case .lock(let mutex, _), .reacquire(let mutex):
            mutexes[mutex, default: MutexModel()].owner = me
            mutexes[mutex, default: MutexModel()].depth += 1
        case .tryLock(let mutex, let recursive):
            tryLockResult = isEnabled(.lock(mutex, recursive: recursive), for: me)
            if tryLockResult {
                mutexes[mutex, default: MutexModel()].owner = me
                mutexes[mutex, default: MutexModel()].depth += 1
            }
        case .unlock(let mutex):
            release(mutex, by: me, location: location)
        case .wait where threads[me].cancelRequested && threads[me].cancellable:
            // pthread_cond_wait is a cancellation point: a pending request acts at once,
            // with the mutex still held, when the caller tests for it.
            threads[me].waitResult = .signalled
        case .wait(let condition, let mutex, let deadline):
            release(mutex, by: me, location: location)
            if failure == nil {
                mutexes[mutex] = MutexModel()
                conditionWaiters[condition, default: []].append(me)
                threads[me].state = .waiting(condition: condition, mutex: mutex, deadline: deadline, location: location)
                return false
            }
        case .signal(let condition):
            if let first = conditionWaiters[condition]?.first { wake(first, result: .signalled, kind: nil) }
        case .broadcast(let condition):
            for waiter in conditionWaiters[condition] ?? [] { wake(waiter, result: .signalled, kind: nil) }
        case .spawn:
            spawnRecord()
        case .cancel(let target):
            // A condition wait is a cancellation point: like pthread_cond_wait, a cancellable
            // waiter wakes, re-acquires its mutex, and then acts on the request.
            threads[target].cancelRequested = true
            if case .waiting = threads[target].state, threads[target].cancellable {
                wake(target, result: .signalled, kind: nil)
            }
        case .start, .atomic, .join, .cancellationPoint, .yield, .sleep, .resume, .handoff:
            break
        }
        if failure != nil {
            aborting = true
            exitForAbort(me)
        }
        return true
    }

    private func release(_ mutex: ObjectIdentifier, by me: Int, location: SeamLocation?) {
        guard let model = mutexes[mutex], model.owner == me, model.depth > 0 else {
            failure = .invariant(
                message: "T\(me) released \(name(mutex, "mutex")), which it does not hold",
                thread: me,
                file: location?.fileID ?? "?",
                line: location?.line ?? 0
            )
            return
        }
        mutexes[mutex]?.depth -= 1
        if model.depth == 1 { mutexes[mutex]?.owner = nil }
    }

    private func spawnRecord() {
        let index = threads.count
        guard index < limits.maxThreads else {
            failure = .tooManyThreads(limits.maxThreads)
            return
        }
        threads.append(ThreadRecord(state: .ready(.start, nil), name: "T\(index)"))
        strategy.threadCreated(index)
        lastSpawned = index
    }

    // MARK: Winding down a failed execution

    /// Seam operations of threads running their cleanups after a failure: performed at once,
    /// without blocking, one thread at a time.
    private func performDuringAbort(_ me: Int, _ operation: PendingOperation) {
        switch operation {
        case .lock(let mutex, _), .reacquire(let mutex):
            mutexes[mutex, default: MutexModel()].owner = me
        case .tryLock:
            tryLockResult = true
        case .unlock(let mutex):
            mutexes[mutex]?.owner = nil
        case .wait:
            threads[me].waitResult = .timedOut
        case .spawn:
            spawnRecord()
        case .join(let target) where !threads[target].isFinished:
            threads[me].state = .ready(operation, nil)
            handOffDuringAbort()
            handoff.park(me)
            threads[me].state = .running
        default:
            break
        }
    }

    /// Passes control to the lowest-numbered thread that still has to exit, or ends the
    /// execution when none is left.
    private func handOffDuringAbort() {
        let next = threads.indices.first { index in
            switch threads[index].state {
            case .finished: false
            case .ready(.join(let target), _): threads[target].isFinished
            case .running: false
            default: true
            }
        }
        if let next {
            wakeThread(next)
        } else {
            finish()
        }
    }

    // MARK: Describing

    private func record(_ thread: Int?, _ kind: OperationKind, target: String?, choice: Int? = nil, location: SeamLocation?) {
        let step = TraceStep(thread: thread, kind: kind, target: target, choice: choice, location: location)
        let encoded = EncodedStep(step)
        if let replay, failure == nil {
            let index = trace.count
            if index >= replay.count {
                failure = .replayDiverged(step: index, detail: "the execution goes on past the token's last step (\(replay.count) steps)")
            } else if replay[index] != encoded {
                failure = .replayDiverged(
                    step: index,
                    detail: "the token has \(replay[index]) but the code took \(encoded): \(step.summary)"
                )
            }
        }
        trace.append(step)
        if stepByteCount + encoded.byteCount <= stepByteCapacity {
            encoded.forEachByte { byte in
                stepBytes[stepByteCount] = byte
                stepByteCount += 1
            }
            cshim_crash_report_set_byte_count(crashReport, stepByteCount)
        }
        progress.add(1, ordering: .relaxed)
    }

    private func target(of operation: PendingOperation) -> String? {
        switch operation {
        case .lock(let object, _), .tryLock(let object, _), .unlock(let object), .reacquire(let object):
            name(object, "mutex")
        case .wait(let condition, _, _), .signal(let condition), .broadcast(let condition):
            name(condition, "condition")
        case .atomic(let cell, _):
            name(cell, "atomic")
        case .join(let thread), .cancel(let thread):
            "T\(thread)"
        case .spawn:
            "T\(threads.count)"
        case .sleep(let deadline):
            "until +\(Double(deadline > clock ? deadline - clock : 0) / 1_000_000) ms"
        case .start, .cancellationPoint, .yield, .resume, .handoff:
            nil
        }
    }

    private func name(_ object: ObjectIdentifier, _ kind: String) -> String {
        if let name = objectNames[object] { return name }
        let number = objectCounts[kind, default: 0] + 1
        objectCounts[kind] = number
        let name = "\(kind)#\(number)"
        objectNames[object] = name
        return name
    }

    private func describePending(_ thread: Int) -> String {
        guard case .ready(let operation, _) = threads[thread].state else { return "\(threads[thread].state)" }
        return operation.kind.description
    }

    /// Says who waits for what when nothing can run.
    private func stuckFailure() -> ExecutionFailure {
        var waits: [String] = []
        var waitsFor: [Int: Int] = [:]
        for (index, thread) in threads.enumerated() {
            switch thread.state {
            case .ready(.lock(let mutex, _), let location), .ready(.reacquire(let mutex), let location):
                let owner = mutexes[mutex]?.owner
                if let owner { waitsFor[index] = owner }
                waits.append("T\(index) waits to lock \(name(mutex, "mutex")) held by \(owner.map { "T\($0)" } ?? "nobody")\(place(location))")
            case .ready(.join(let target), let location):
                waitsFor[index] = target
                waits.append("T\(index) waits to join T\(target)\(place(location))")
            case .waiting(let condition, _, _, let location):
                waits.append("T\(index) waits on \(name(condition, "condition")), which nobody will signal\(place(location))")
            case .ready(let operation, let location):
                waits.append("T\(index) waits to \(operation.kind)\(place(location))")
            case .running, .finished:
                break
            }
        }
        if let asyncServices, asyncServices.hasOutstandingTasks {
            waits.append(
                "tasks are suspended: one waiting for work outside the harness (Task {}, Task.detached, MainActor, Dispatch) is an escape"
            )
        }
        if threads[0].isFinished {
            return .threadsStillRunning(waits: waits)
        }
        return .deadlock(waits: waits, cycle: cycle(in: waitsFor))
    }

    private func place(_ location: SeamLocation?) -> String {
        location.map { " at \($0.fileName):\($0.line)" } ?? ""
    }

    /// A cycle in a graph where each thread waits for at most one other.
    private func cycle(in waitsFor: [Int: Int]) -> [Int]? {
        for start in waitsFor.keys.sorted() {
            var seen: [Int] = []
            var current = start
            while true {
                if let index = seen.firstIndex(of: current) { return Array(seen[index...]) }
                seen.append(current)
                guard let next = waitsFor[current] else { break }
                current = next
            }
        }
        return nil
    }
}
