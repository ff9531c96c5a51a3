import CShim
import Primitives
import Synchronization

/// One controlled execution of a scenario: a ``SeamController`` that runs exactly one of its
/// threads at a time and, at every seam operation, lets a strategy pick who runs next.
///
/// Its state is touched only by the running thread: control passes from thread to thread
/// through a ``HandoffBackend`` (futexes, for OS threads), whose release and acquire order
/// every access, so the state needs no lock. A decision that keeps the running thread costs no handoff.
final class Execution: SeamController, SeamThreadHosting, @unchecked Sendable {
    struct Limits {
        var maxThreads = 64
        var maxSteps = 20_000
        var spuriousWakeups = true
        var timeoutsRaceProgress = false
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
    private var replay: ReplayFollower?
    private let handoff: any HandoffBackend
    /// The handoff when scenario threads run as coroutines.
    private let coroutines: CoroutineHandoff?
    /// Where the execution's OS threads run (the executor's lanes, and scenario threads when
    /// they are not coroutines): OS threads reused from one execution to the next.
    let threadPool: SeamThreadPool
    /// Why the execution stopped to be run again on OS threads: a scenario thread running
    /// as a coroutine did what only an OS thread can (it was cancelled, or used
    /// thread-specific storage).
    private(set) var needsOSThreads: String?

    private var threads: [ThreadRecord] = []
    /// The storage of ``decide(running:)``'s candidates, kept between decisions.
    private var candidateBuffer: [Candidate] = []
    private var spuriousBuffer: [Candidate] = []
    private var mutexes: [ObjectIdentifier: MutexModel] = [:]
    private var conditionWaiters: [ObjectIdentifier: [Int]] = [:]
    /// The harness's own mutex and conditions (the task executor's): see ``isInternal(_:)``.
    private var internalObjects: Set<ObjectIdentifier> = []
    private var spawningExecutorThread = false
    private var spawningInterchangeableLane = false
    /// The decisions taken: which thread or job ran, and who could have gone on.
    private(set) var decisions: [ScheduleDecision] = []
    /// How many decisions ran another thread while the running one could go on.
    private(set) var preemptions = 0
    /// The order in which threads and tasks took each shared object.
    private(set) var fingerprint = InterleavingFingerprint()
    private var taskNumbers: [UInt64: Int] = [:]
    /// The names of the tasks that took steps, by their number in ``TraceStep/task`` (from 1).
    private(set) var taskNames: [Int: String] = [:]
    private var tasksAsked: Set<Int> = []
    private var objectNames: [ObjectIdentifier: String] = [:]
    private var objectCounts: [String: Int] = [:]
    private var exiting: Set<Int> = []
    private var aborting = false
    private var clock: UInt64 = 1_000_000_000
    private var tryLockResult = false
    private var lastSpawned = 0
    private let activity: ActivityCounter
    private let foreignJob = Atomic<Bool>(false)
    private let foreignJobOrigin = Mutex<String?>(nil)
    private var asyncServices: AsyncServices?
    private let runningThread = Atomic<Int>(0)
    /// Stored (releasing) by every thread as it leaves the harness for its own code, and
    /// loaded (acquiring) by the thread that declares a stall before it reads or writes the
    /// execution's state: so that state is handed to it like a step is handed from thread to
    /// thread. Without it ThreadSanitizer reported the stall's write of `failure` as racing
    /// with the stalled thread's last step.
    private let leftHarness = Atomic<Int>(0)
    /// Each thread's OS handle, to read a stalled thread's stack. Guarded by a pthread mutex
    /// (new threads record theirs at once): a contended `Synchronization.Mutex` hands over
    /// where ThreadSanitizer cannot see it, and it reported these writes as racing.
    private let threadHandlesMutex = SeamMutex()
    private var threadHandles: [Int: UInt] = [:]
    private let done = Atomic<Bool>(false)
    /// Threads the harness spawned for the scenario and its tasks that their owner has not
    /// joined yet.
    private var unjoinedHarnessThreads: [SeamThread] = []

    /// The steps taken so far; complete once ``run(_:)`` returned.
    private(set) var trace: [TraceStep] = []
    /// Why the execution failed, if it did.
    private(set) var failure: ExecutionFailure?

    /// Creates an execution that counts its steps on `activity`; should one of its threads
    /// crash, the process prints `crashPrefix`, the schedule so far in base64url, and
    /// `crashSuffix`. Its scenario threads run as coroutines on stacks from
    /// `coroutineStacks` where this build can switch coroutines, on OS threads otherwise.
    init(
        strategy: any SchedulingStrategy,
        replay: ReplayFollower?,
        limits: Limits,
        threadPool: SeamThreadPool,
        coroutineStacks: CoroutineStacks?,
        activity: ActivityCounter,
        crashPrefix: String,
        crashSuffix: String
    ) {
        self.strategy = strategy
        self.activity = activity
        self.replay = replay
        self.limits = limits
        self.threadPool = threadPool
        if let coroutineStacks, cshim_coroutines_supported() {
            let coroutines = CoroutineHandoff(
                threadCount: limits.maxThreads,
                spinsBeforeSleeping: limits.spinsBeforeSleeping,
                stacks: coroutineStacks,
                pool: threadPool
            )
            self.coroutines = coroutines
            handoff = coroutines
        } else {
            coroutines = nil
            handoff = FutexHandoff(threadCount: limits.maxThreads, spinsBeforeSleeping: limits.spinsBeforeSleeping)
        }
        stepByteCapacity = 3 * (limits.maxSteps + 2 * limits.maxThreads + 16)
        stepBytes = .allocate(capacity: stepByteCapacity)
        guard let report = cshim_crash_report_create(crashPrefix, crashSuffix, stepBytes, stepByteCapacity) else {
            preconditionFailure("the harness ran out of memory creating an execution")
        }
        crashReport = report
        cshim_install_crash_reporter()
        GlobalEnqueueHook.install()
    }

    deinit {
        cshim_crash_report_destroy(crashReport)
        stepBytes.deallocate()
    }

    /// Where the code first left the replayed schedule, once the execution has ended;
    /// `nil` when it followed it to the end, or replayed nothing.
    var replayDivergence: ReplayFollower.Divergence? {
        var follower = replay
        follower?.finish(after: trace.count)
        return follower?.divergence
    }

    /// How many threads the execution started, the root thread and the executor's included.
    var threadCount: Int { threads.count }

    /// Where the scenario's threads run: coroutines, or the pool's OS threads.
    var scenarioThreadHost: any SeamThreadHost { coroutines ?? threadPool }

    var hostForSpawnedThreads: (any SeamThreadHost)? { coroutines }

    /// The strategy, as it is after the execution (strategies carry state across executions).
    var finalStrategy: any SchedulingStrategy { strategy }

    // MARK: Driving

    /// Runs `body` as thread 0 and returns when every thread has finished, the execution
    /// failed and wound down, or it stalled.
    func run(_ body: @escaping @Sendable () -> Void) {
        threads = [ThreadRecord(state: .ready(.start, nil), name: "T0")]
        strategy.threadCreated(0, by: nil)
        switch Seam.spawnThread(on: scenarioThreadHost, controlledBy: self, as: SeamThreadID(rawValue: 0), body) {
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

    /// Waits for the execution to end; fails it as stalled once no step was taken for the
    /// stall timeout (checked a few times a second, so the stall is reported on time).
    private func waitUntilDone() {
        let slice = min(limits.stallTimeout, .milliseconds(250))
        var lastProgress = activity.steps
        var lastChange = ContinuousClock.now
        while !handoff.awaitFinish(timeout: slice) {
            let current = activity.steps
            if current != lastProgress {
                lastProgress = current
                lastChange = .now
            } else if ContinuousClock.now - lastChange >= limits.stallTimeout {
                _ = leftHarness.load(ordering: .acquiring)
                let thread = runningThread.load(ordering: .relaxed)
                let diagnosis = threadHandlesMutex.withLockDirectly { threadHandles[thread] }.flatMap(StallDiagnosis.init(thread:))
                failure = .stalled(
                    thread: thread,
                    seconds: limits.stallTimeout.seconds,
                    diagnosis: (diagnosis?.explanation ?? "blocked outside the seam: in code the harness does not control") + lastPlace(of: thread)
                )
                return
            }
        }
    }

    /// Where `thread` was last seen at the seam, for a stall report: its last step with a
    /// source location, or where it was started. Read by the waiting thread while the
    /// stalled one is outside the seam and the others are parked.
    private func lastPlace(of thread: Int) -> String {
        if let step = trace.last(where: { $0.thread == thread && $0.location != nil && !$0.isBookkeeping }), let location = step.location {
            return "; its last step was \(step.kind) at \(location.fileName):\(location.line)"
        }
        if let spawn = trace.first(where: { $0.kind == .spawn && $0.target == "T\(thread)" }), let location = spawn.location {
            return "; it was started at \(location.fileName):\(location.line) and has taken no step since"
        }
        return ""
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
            // Once per OS thread: the coroutines after the first share the host's.
            if me == 0 || coroutines?.runsAsCoroutine(me) != true {
                cshim_set_thread_crash_report(crashReport)
                cshim_allow_stack_capture()
                // Every thread, as a pooled one may have been pinned elsewhere before.
                if let cpu = limits.cpu {
                    _ = cshim_pin_current_thread_to_cpu(cpu)
                }
            }
            threadHandlesMutex.withLockDirectly { threadHandles[me] = cshim_current_thread_handle() }
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
        if coroutines?.runsAsCoroutine(thread.rawValue) == true {
            runOnOSThreads(because: "T\(thread.rawValue) is cancelled")
        }
        point(.cancel(thread.rawValue), location)
    }

    func willUseThreadSpecificState(at location: SeamLocation) {
        guard let me = Seam.currentThread?.rawValue, coroutines?.runsAsCoroutine(me) == true else { return }
        runOnOSThreads(because: "T\(me) uses thread-specific storage at \(location.fileName):\(location.line)")
    }

    /// Ends the execution, to be run again with every thread on an OS thread of its own.
    private func runOnOSThreads(because reason: String) -> Never {
        withCancellationDisabled { _ in needsOSThreads = needsOSThreads ?? reason }
        fail(.nondeterminism("run again on OS threads: \(reason)"))
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
        internalObjects.formUnion(services.synchronizationObjects)
        services.start(lanes: limits.executorLanes)
        return services
    }

    /// The execution's task executor, if something started it.
    var startedServices: AsyncServices? { asyncServices }

    /// Lets the tasks finish and the executor's threads exit; called as thread 0 ends.
    func closeServices() {
        asyncServices?.close()
    }

    /// The scheduling point of a thread that has just queued `job` on the scenario's
    /// executor: a lane may take the job before the thread goes on.
    func jobEnqueued(_ job: JobIdentity) {
        point(.enqueueJob(task: job.task), nil)
    }

    /// The scheduling point of a lane that finished a job, before it takes the next: any
    /// other thread may run first, and jobs queued meanwhile compete for the lane.
    func laneWillTakeJob() {
        point(.takeJob, nil)
        withCancellationDisabled { _ in threads[currentThread()].job = nil }
    }

    /// The execution's number (from 0) for the task the runtime knows by `runtimeID`:
    /// tasks are numbered in the order the execution first sees them.
    func taskNumber(runtimeID: UInt64) -> Int {
        if let number = taskNumbers[runtimeID] { return number }
        taskNumbers[runtimeID] = taskNumbers.count
        return taskNumbers.count - 1
    }

    /// Picks which of the queued `jobs` the calling lane runs: a decision of the strategy,
    /// recorded in the trace (and in tokens, as the index in the queue) when there is a
    /// choice. The lane's steps until ``laneWillTakeJob(at:)`` are the job's task's.
    func chooseJob(among jobs: [JobIdentity]) -> Int {
        withCancellationDisabled { _ in
            let me = currentThread()
            if aborting { return 0 }
            let count = jobs.count
            guard count > 1 else {
                threads[me].job = jobs.first
                return 0
            }
            let index: Int
            if let choice = replay?.jobChoice(at: trace.count, among: count) {
                index = choice
            } else {
                let options = jobs.map { Candidate(.job($0), access: Access(object: .jobQueue, isRead: false)) }
                index = strategy.choose(among: options, running: nil)
            }
            decisions.append(.job(index))
            threads[me].job = jobs[index]
            record(me, .chooseJob, target: "(queued job \(index + 1) of \(count))", choice: index, location: nil)
            return index
        }
    }

    /// Starts a thread of the task executor (a lane, the timer thread): its steps outside a
    /// task's job are the harness's own bookkeeping.
    func spawnExecutorThread(interchangeable: Bool, _ body: @escaping @Sendable () -> Void) -> SeamThread {
        spawningExecutorThread = true
        spawningInterchangeableLane = interchangeable
        defer {
            spawningExecutorThread = false
            spawningInterchangeableLane = false
        }
        switch Seam.spawnThread(on: threadPool, body) {
        case .success(let thread):
            spawnedHarnessThread(thread)
            return thread
        case .failure(let error): preconditionFailure("the harness could not start an executor thread: \(error)")
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
        failAtNextDecision(.taskThrew(error: "\(error)"))
    }

    /// Fails the execution without ending the calling thread, which may be inside the
    /// concurrency runtime: the failure takes effect at the next decision. Call from the
    /// running thread.
    func failAtNextDecision(_ failure: ExecutionFailure) {
        withCancellationDisabled { _ in
            if self.failure == nil { self.failure = failure }
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
    private func point(_ operation: PendingOperation, _ location: SeamLocation?) -> Int {
        withCancellationDisabled { cancellable in
            let me = currentThread()
            if aborting {
                performDuringAbort(me, operation)
                return me
            }
            threads[me].state = .ready(operation, location)
            threads[me].cancellable = cancellable
            var running: Int? = me
            if isInternal(operation), isEnabled(operation, for: me), urgentCandidate() == nil {
                if perform(me) { return me }
                running = nil
            }
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

    /// Whether `operation` works on the harness's own synchronization. Such an operation is
    /// recorded but takes no decision of the strategy unless it blocks: the executor's
    /// bookkeeping is invisible to the scenario, and interleaving at it would only spend
    /// schedules (and PCT's change points, and the exhaustive search's bound) on schedules
    /// equivalent to others. Waits on the harness's conditions never wake spuriously,
    /// for the same reason: they are predicate loops.
    private func isInternal(_ operation: PendingOperation) -> Bool {
        guard !internalObjects.isEmpty, case .shared(let object)? = operation.access(by: 0)?.object else { return false }
        return internalObjects.contains(object)
    }

    /// When `me`'s operation unblocked a thread in a non-preemptible region, that thread
    /// runs at once: it holds a runtime lock that `me` may need before its next
    /// scheduling point.
    private func stepAsideForUrgentThread(_ me: Int, _ location: SeamLocation?) {
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

    /// When a thread in a non-preemptible region is blocked on a mutex or a join, the thread
    /// it waits for (followed through owners that are blocked in turn) if that one can run:
    /// the only thread that may run until the blocked one can. Any other thread might run
    /// into the runtime lock the blocked one holds, outside the seam. `nil` when no such
    /// thread is blocked, or when what it waits for cannot be run now (a condition wait, a
    /// yield, a cycle): then the strategy picks among all candidates.
    private func blockerOfUrgentThread() -> Int? {
        for index in threads.indices where threads[index].nonPreemptibleDepth > 0 {
            var visited: Set<Int> = [index]
            var current = index
            while let next = blocker(of: current), visited.insert(next).inserted {
                guard case .ready(let operation, _) = threads[next].state else { break }
                if isEnabled(operation, for: next) {
                    if case .yield = operation { break }
                    return next
                }
                current = next
            }
        }
        return nil
    }

    /// The thread that `thread` waits for at its scheduling point: the owner of the mutex it
    /// cannot lock, or the thread it joins.
    private func blocker(of thread: Int) -> Int? {
        guard case .ready(let operation, _) = threads[thread].state, !isEnabled(operation, for: thread) else { return nil }
        switch operation {
        case .lock(let mutex, _), .reacquire(let mutex):
            return mutexes[mutex]?.owner
        case .join(let target):
            return target
        default:
            return nil
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
        leftHarness.store(0, ordering: .releasing)
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
        if let coroutines, coroutines.runsAsCoroutine(me) {
            coroutines.exit(me)
        }
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
                        + (ProcessExecutors.areTaken ? "" : "; explore with `isolation: .process` to run Task {}, Task.detached and MainActor jobs under the harness")
                )
            }
            if failure != nil { return .failed }
            // Reused from decision to decision, so that a decision allocates nothing.
            var candidates = candidateBuffer
            var spurious = spuriousBuffer
            candidates.removeAll(keepingCapacity: true)
            spurious.removeAll(keepingCapacity: true)
            candidateBuffer = []
            spuriousBuffer = []
            defer {
                candidateBuffer = candidates
                spuriousBuffer = spurious
            }
            for index in threads.indices {
                switch threads[index].state {
                case .ready(let operation, _):
                    if isEnabled(operation, for: index) {
                        candidates.append(Candidate(.thread(index), access: operation.access(by: index), isSymmetricCopy: hasIdleTwin(index, among: candidates)))
                    }
                case .waiting(let condition, _, _, _):
                    if limits.spuriousWakeups && !internalObjects.contains(condition) {
                        spurious.append(Candidate(.spuriousWake(index), access: Access(object: .shared(condition), isRead: false)))
                    }
                case .running, .finished:
                    break
                }
            }
            // A thread in a non-preemptible region (running code under a runtime lock) runs
            // whenever it can; one that blocked there lets only the thread it waits for run
            // (below, within the step bound) until it can.
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
            // While it is blocked there, only the thread it waits for runs.
            if let blocker = blockerOfUrgentThread() {
                return .run(blocker)
            }
            // A yield is fair: when another thread can run, one does, so spin loops that
            // yield end under every strategy.
            if let running, case .ready(.yield, _) = threads[running].state, candidates.count > 1 {
                candidates.removeAll { $0.choice == .thread(running) }
            }
            let runningCandidate = running.flatMap { thread in candidates.contains { $0.choice == .thread(thread) } ? thread : nil }
            candidates += spurious
            // A timeout may fire while other work could still run: the strategy decides (or
            // the token, which may have recorded one, while a replay follows it).
            if limits.timeoutsRaceProgress || replay?.isFollowing == true, earliestDeadline() != nil {
                candidates.append(Candidate(.advanceClock))
            }
            switch choose(among: candidates, running: runningCandidate) {
            case .thread(let thread):
                decisions.append(.thread(running: runningCandidate, chosen: thread))
                if let runningCandidate, thread != runningCandidate { preemptions += 1 }
                return .run(thread)
            case .spuriousWake(let thread):
                wake(thread, result: .signalled, kind: .spuriousWake)
            case .advanceClock:
                _ = advanceClock()
            case .job:
                preconditionFailure("a strategy chose a job where threads run")
            }
        }
    }

    /// Whether `thread` is an idle lane (one that runs no job) and one of `candidates` is
    /// another idle lane about to take the same operation.
    private func hasIdleTwin(_ thread: Int, among candidates: [Candidate]) -> Bool {
        guard let operation = idleLaneOperation(thread) else { return false }
        return candidates.contains { candidate in
            guard case .thread(let other) = candidate.choice else { return false }
            return idleLaneOperation(other) == operation
        }
    }

    /// What `thread` is about to do, when it is an interchangeable lane that runs no job.
    private func idleLaneOperation(_ thread: Int) -> PendingOperation? {
        guard threads[thread].isInterchangeableLane, threads[thread].job == nil, case .ready(let operation, _) = threads[thread].state else { return nil }
        return operation
    }

    private func choose(among candidates: [Candidate], running: Int?) -> Choice {
        if let choice = replay?.choice(at: trace.count, among: candidates, describe: { "T\($0) (\(describePending($0)))" }) {
            return choice
        }
        return candidates[strategy.choose(among: candidates, running: running)].choice
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
        guard let earliest = earliestDeadline() else { return false }
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

    /// The earliest deadline of a timed wait or a sleep still to come.
    private func earliestDeadline() -> UInt64? {
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
        return earliest
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
        if case .shared(let object)? = operation.access(by: me)?.object, !internalObjects.contains(object) {
            fingerprint.noteAccess(to: object, by: threads[me].job?.task.map { limits.maxThreads + $0 } ?? me)
        }
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
            spawnRecord(by: me)
        case .cancel(let target):
            // A condition wait is a cancellation point: like pthread_cond_wait, a cancellable
            // waiter wakes, re-acquires its mutex, and then acts on the request.
            threads[target].cancelRequested = true
            if case .waiting = threads[target].state, threads[target].cancellable {
                wake(target, result: .signalled, kind: nil)
            }
        case .start, .atomic, .join, .cancellationPoint, .yield, .sleep, .resume, .handoff, .enqueueJob, .takeJob:
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

    private func spawnRecord(by parent: Int) {
        let index = threads.count
        guard index < limits.maxThreads else {
            failure = .tooManyThreads(limits.maxThreads)
            return
        }
        var record = ThreadRecord(state: .ready(.start, nil), name: "T\(index)")
        record.isExecutorThread = spawningExecutorThread
        record.isInterchangeableLane = spawningInterchangeableLane
        threads.append(record)
        strategy.threadCreated(index, by: parent)
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
            spawnRecord(by: me)
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
        let task = thread.flatMap { threads[$0].isExecutorThread ? taskOfStep(on: $0, kind) : nil }
        let isBookkeeping = Self.isBookkeeping(kind, at: location)
            || (thread.map { threads[$0].isExecutorThread } == true && task == nil)
        if let task, !isBookkeeping, kind != .chooseJob, kind != .takeJob { nameTask(task) }
        let step = TraceStep(
            thread: thread,
            kind: kind,
            target: target,
            choice: choice,
            location: location,
            task: task.map { $0 + 1 },
            isBookkeeping: isBookkeeping
        )
        let encoded = EncodedStep(step)
        if failure == nil {
            replay?.check(encoded, at: trace.count, summary: step.summary)
        }
        trace.append(step)
        if stepByteCount + encoded.byteCount <= stepByteCapacity {
            encoded.forEachByte { byte in
                stepBytes[stepByteCount] = byte
                stepByteCount += 1
            }
            cshim_crash_report_set_byte_count(crashReport, stepByteCount)
        }
        activity.noteStep()
    }

    /// Whether a step is the harness's own: taken in the harness's code.
    private static func isBookkeeping(_ kind: OperationKind, at location: SeamLocation?) -> Bool {
        location?.fileIDHasPrefix("Harness/") == true
    }

    /// The task (numbered from 0) a step of executor thread `thread` belongs to: the task
    /// the runtime runs on it, or, when a lane picks or finishes a task's job, that task.
    private func taskOfStep(on thread: Int, _ kind: OperationKind) -> Int? {
        if kind == .chooseJob || kind == .takeJob { return threads[thread].job?.task }
        guard threads[thread].job != nil, let runtimeID = currentTaskRuntimeID() else { return nil }
        return taskNumber(runtimeID: runtimeID)
    }

    /// Learns the name of task `task`, which runs on the calling lane, the first time it
    /// takes a step of its own.
    private func nameTask(_ task: Int) {
        guard tasksAsked.insert(task).inserted, let name = Task.name else { return }
        taskNames[task + 1] = name
    }

    /// Names the task running on the calling lane `name`, for reports; not a scheduling point.
    func nameCurrentTask(_ name: String) {
        guard let runtimeID = currentTaskRuntimeID() else { return }
        withCancellationDisabled { _ in
            let task = taskNumber(runtimeID: runtimeID)
            tasksAsked.insert(task)
            taskNames[task + 1] = name
        }
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
        case .enqueueJob(let task):
            task.map { "task \($0 + 1)" } ?? "a job of no task"
        case .start, .cancellationPoint, .yield, .resume, .handoff, .takeJob:
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
