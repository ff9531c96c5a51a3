import CShim
import Primitives
import Synchronization

/// One controlled execution of a scenario: a ``SeamController`` that runs exactly one of its
/// threads at a time and, at every seam operation, lets a strategy pick who runs next.
/// ``run(_:)`` takes an ``ExecutionPlan`` and hands back an ``ExecutionRecord``.
///
/// It is the driver of an ``ExecutionModel``, which holds the scheduling state and rules:
/// each seam operation becomes an event of the model, and the execution applies what the
/// model returns (runs a thread through the ``HandoffBackend``, records a step, ends a
/// thread, winds the execution down). The strategy and a replayed schedule choose at the
/// model's decisions; the trace (``TraceRecorder``), the replay's checks and the crash report
/// are kept here, where the runtime's current task and the process's crash reporter are at
/// hand. Its seam operations are in `Execution+SeamController.swift`, what its task executor
/// asks of it in `Execution+TaskScheduling.swift`.
///
/// Its state is touched only by the running thread: control passes from thread to thread
/// through the backend, whose release and acquire order every access, so the state needs no
/// lock. A decision that keeps the running thread costs no handoff. For the same reason no
/// two accesses to that state ever overlap, and it is exempt from dynamic exclusivity
/// checking (`@exclusivity(unchecked)`), which cost about a fifth of a decision.
final class Execution: SeamController, SeamThreadHosting, @unchecked Sendable {
    /// What bounds an execution and how it waits.
    typealias Limits = ExecutionLimits

    enum Decision {
        case run(Int)
        case allFinished
        case failed
    }

    let limits: Limits
    /// The scenario, run as thread 0 (``ExecutionPlan/scenario``).
    private let scenario: @Sendable () -> Void
    /// The strategy, lent by the search (``StrategyCell``).
    let strategy: StrategyCell
    /// The recorded schedule the strategy follows, checked step by step.
    @exclusivity(unchecked) var replay: ReplayFollower?
    /// Whether there is a recorded schedule to follow: asked before ``replay`` at every step,
    /// as a plain flag, where reading the optional follower's case took a call.
    let followsRecordedSchedule: Bool
    /// The plan's record's crash report, its texts this execution's.
    let crashReport: UnsafeMutablePointer<cshim_crash_report>
    let backend: any HandoffBackend
    /// Where the execution's OS threads run: OS threads reused from one execution to the next.
    let threadPool: SeamThreadPool
    /// Why the execution stopped to be run again on OS threads (``ExecutionRecord/needsOSThreads``).
    @exclusivity(unchecked) var needsOSThreads: Nondeterminism?
    /// The scheduling state; its events are sent, and its actions applied, only here.
    @exclusivity(unchecked) var model: ExecutionModel
    @exclusivity(unchecked) var trace: TraceRecorder
    /// Where the steps and decisions are stored, and given back to once the record is made.
    let storage: RecordStorage
    let watch: ExecutionWatch
    @exclusivity(unchecked) var asyncServices: AsyncServices?
    private let done = Atomic<Bool>(false)
    /// Who ended the execution (an ``Ending``); 0 while nobody has.
    private let ended = Atomic<UInt8>(0)
    @exclusivity(unchecked) var unjoinedThreads = UnjoinedThreads()
    /// Every seam object the execution's threads used, kept alive until it ends (see
    /// ``identity(of:)``).
    @exclusivity(unchecked) var seenObjects = ObjectMap<AnyObject>()
    /// The storage of a lane's choice among queued jobs (``chooseJob(among:)``), kept between
    /// choices.
    let jobCandidates: CandidateList
    /// What the task executor of an earlier execution left (its synchronization and
    /// storage), for ``services()`` to start this one's with.
    @exclusivity(unchecked) var executorLeftovers = AsyncServices.Leftovers()

    /// What an execution that ended leaves for the next on its runner
    /// (``run(_:on:reusing:)``): its model's and its trace's storage, its watch and its lists,
    /// emptied with their capacity kept, and what its task executor left. Only
    /// ``leave(in:)`` gives one storage, so what it holds is always empty.
    struct Leftovers {
        fileprivate var model = ExecutionModel.Leftovers()
        fileprivate var trace = TraceRecorder.Leftovers()
        fileprivate var watch: ExecutionWatch?
        fileprivate var unjoinedThreads = UnjoinedThreads()
        fileprivate var seenObjects = ObjectMap<AnyObject>()
        fileprivate var jobCandidates: CandidateList?
        fileprivate var executor = AsyncServices.Leftovers()
    }

    /// Whether the execution failed and its threads are winding down.
    var aborting: Bool { model.isWindingDown }

    private init(_ plan: borrowing ExecutionPlan, reusing leftovers: inout Leftovers) {
        scenario = plan.scenario
        strategy = plan.strategy
        replay = plan.strategy.value.recordedSchedule.map(ReplayFollower.init(steps:))
        followsRecordedSchedule = replay != nil
        limits = plan.limits
        threadPool = plan.threadPool
        storage = plan.storage
        var (steps, decisions) = storage.take()
        model = ExecutionModel(limits: plan.limits, decisionStorage: &decisions, reusing: &leftovers.model)
        watch = leftovers.watch.take() ?? ExecutionWatch()
        // Swapped out, not copied: the arrays must be unique for appending to reuse them.
        swap(&unjoinedThreads, &leftovers.unjoinedThreads)
        swap(&seenObjects, &leftovers.seenObjects)
        jobCandidates = leftovers.jobCandidates.take() ?? CandidateList(capacity: Self.expectedQueuedJobs)
        swap(&executorLeftovers, &leftovers.executor)
        if let reused = plan.reusedHandoff {
            reused.reset()
            backend = reused
        } else {
            backend = makeHandoffBackend(
                threadCount: limits.maxThreads,
                spinsBeforeSleeping: limits.spinsBeforeSleeping,
                coroutineStacks: plan.coroutineStacks,
                pool: plan.threadPool
            )
        }
        let record = plan.record
        precondition(
            record.stepCapacity >= Self.stepByteCapacity(limits), "the schedule record is too small for the limits")
        trace = TraceRecorder(
            record: record, activity: plan.activity, storage: consume steps, reusing: &leftovers.trace)
        crashReport = plan.texts.withCStrings { token, crashPrefix, crashSuffix in
            record.begin(tokenPrefix: token)
            return record.crashReport(prefix: crashPrefix, suffix: crashSuffix)
        }
        ProcessHooks.installForExecutions()
    }

    /// The queued jobs a lane's choice among them is given room for at its first.
    private static var expectedQueuedJobs: Int { 8 }

    /// How many bytes the steps of an execution under `limits` may take: three for each step
    /// the limits allow, with room to spare for the threads winding down past the bound.
    static func stepByteCapacity(_ limits: Limits) -> Int {
        3 * (limits.maxSteps + 2 * limits.maxThreads + 16)
    }

    // MARK: Driving

    /// Runs `plan`'s scenario as thread 0 and returns what the execution did once every
    /// thread has finished, the execution failed and wound down, or it stalled: its coroutines
    /// run on a thread of the pool while the calling thread watches for a stall.
    static func run(_ plan: ExecutionPlan) -> ExecutionRecord {
        var nothingLeft = Leftovers()
        let execution = Execution(plan, reusing: &nothingLeft)
        let root = execution.start()
        if let stalled = execution.watch.awaitEnd(
            of: execution.backend, activity: plan.activity, timeout: plan.limits.stallTimeout)
        {
            execution.noteStalled(stalled)
        }
        execution.joinIfDone(root)
        return execution.record()
    }

    /// Runs `plan`'s scenario as thread 0 with its coroutines on the calling thread, watched
    /// for a stall by `runner`'s watcher, in the storage the execution before it on the runner
    /// left in `leftovers`; returns what the execution did once every thread has finished or
    /// the execution failed and wound down, and leaves its own storage in `leftovers` for the
    /// next; `nil` when the watcher found it stalled first and took it over (``RunnerWatch``):
    /// then the caller must leave it alone. No OS thread but the caller's takes part when every
    /// scenario thread is a coroutine.
    static func run(_ plan: ExecutionPlan, on runner: ExecutionRunner, reusing leftovers: inout Leftovers)
        -> ExecutionRecord?
    {
        let execution = Execution(plan, reusing: &leftovers)
        execution.backend.hostOnCallingThread()
        runner.begin(execution, activity: plan.activity)
        let root = execution.start()
        execution.backend.hostUntilFinished()
        guard execution.claim(.ended) else { return nil }
        runner.end()
        execution.joinIfDone(root)
        let record = execution.record()
        execution.leave(in: &leftovers)
        return record
    }

    /// Starts thread 0, which runs the scenario and then closes the execution's services.
    /// Its entry is a function given the execution unretained, not a closure made for each
    /// execution: the thread's seam slot holds its controller, the execution, until it exits.
    private func start() -> SeamThread {
        strategy.value.threadCreated(0, by: nil)
        let host = backend.coroutineHost ?? threadPool
        let started = Seam.spawnThread(
            on: host, controlledBy: self, as: SeamThreadID(rawValue: 0),
            entry: { argument in
                guard let argument else { return }
                Unmanaged<Execution>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.runScenario() }
            },
            argument: Unmanaged.passUnretained(self).toOpaque())
        switch started {
        case .failure(let error):
            preconditionFailure("the harness could not start a scenario thread: \(error)")
        case .success(let root):
            backend.resume(0)
            return root
        }
    }

    /// Thread 0's body: the scenario, then the execution's services closed.
    private func runScenario() {
        scenario()
        closeServices()
    }

    /// Once the execution has ended (not stalled), joins its OS threads.
    private func joinIfDone(_ root: SeamThread) {
        guard done.load(ordering: .acquiring) else { return }
        _ = try? root.join()
        unjoinedThreads.joinAll()
    }

    /// Who ends an execution: the thread that ran it, once its threads have ended, or its
    /// watcher, once it stalled.
    enum Ending: UInt8 {
        case ended = 1
        case stalled = 2
    }

    /// Claims the execution's end for `ending`: `true` for the first claim only. The loser
    /// leaves the execution alone.
    func claim(_ ending: Ending) -> Bool {
        ended.compareExchange(expected: 0, desired: ending.rawValue, ordering: .acquiringAndReleasing).exchanged
    }

    /// Notes that the running thread stalled as `stalled` says; call once, from the thread
    /// that watched it, which may then read the execution's record.
    func noteStalled(_ stalled: ExecutionWatch.Stalled) {
        model.noteStall(
            .stalled(
                thread: stalled.thread,
                seconds: stalled.stall.seconds,
                diagnosis: StallDiagnosis(
                    stalled.stall, frames: stalled.frames, lastSeen: trace.lastSeen(stalled.thread))
            ))
    }

    /// What the execution did; call once it has ended. Gives the storage of its steps and
    /// decisions back, for the next execution once the record is dropped.
    func record() -> ExecutionRecord {
        var follower = replay
        follower?.finish(after: trace.steps.count)
        let record = ExecutionRecord(
            steps: trace.steps,
            failure: escape().map(ExecutionFailure.escaped) ?? model.failure,
            decisions: model.decisions,
            preemptions: model.preemptions,
            fingerprint: model.fingerprint.value,
            threadCount: model.threads.count,
            taskNames: trace.taskNames,
            jobPoints: trace.jobPoints,
            taskCreations: asyncServices.map { trace.numbered($0.creationSites) } ?? [:],
            replayDivergence: follower?.divergence,
            needsOSThreads: needsOSThreads
        )
        storage.giveBack(steps: trace.steps.steps, decisions: model.decisions)
        return record
    }

    /// Empties the execution's storage into `leftovers`, keeping its capacity, for the next
    /// execution on its runner, and lets go of the seam objects its threads used; call once it
    /// has ended and its record was made. Nothing is left when its threads were not all joined.
    private func leave(in leftovers: inout Leftovers) {
        guard done.load(ordering: .acquiring) else { return }
        model.leave(in: &leftovers.model)
        trace.leave(in: &leftovers.trace)
        watch.reset()
        leftovers.watch = watch
        jobCandidates.removeAll()
        leftovers.jobCandidates = jobCandidates
        swap(&leftovers.unjoinedThreads, &unjoinedThreads)
        swap(&leftovers.seenObjects, &seenObjects)
        leftovers.seenObjects.removeAll()
        if let asyncServices {
            asyncServices.leave(in: &leftovers.executor)
        } else {
            swap(&leftovers.executor, &executorLeftovers)
        }
    }

    // MARK: Scheduling

    /// A scheduling point of the calling thread: returns when it has been chosen and has
    /// performed `operation`, with what the operation hands back.
    @discardableResult
    func point(_ operation: PendingOperation, _ location: SeamLocation?) -> ExecutionModel.Reply {
        let me = currentThread()
        // The harness's own synchronization, performed at once, reaches no cancellation point
        // and leaves the thread's cancellation state alone: the executor's bookkeeping makes
        // most of an actor scenario's seam operations.
        if !aborting, let (outcome, reply) = model.performQuietly(me, operation, at: location) {
            if outcome == .fails { withCancellationDisabled { _ in exitForAbort(me) } }
            watch.noteLeavingHarness()
            return reply
        }
        return withCancellationDisabled(on: me) { cancellable in
            if aborting { return performDuringAbort(me, operation) }
            var running: Int? = me
            if model.arrive(me, at: operation, location: location, cancellable: cancellable) == .performsAtOnce {
                let performed = perform(me)
                if performed.outcome == .continues { return performed.reply }
                running = performed.outcome == .timedOut ? me : nil
            }
            while true {
                switch decide(running: running) {
                case .run(let next):
                    if next != me { switchTo(next, from: me) }
                case .allFinished:
                    preconditionFailure("the harness found every thread finished while T\(me) runs")
                case .failed:
                    exitForAbort(me)
                }
                let performed = perform(me)
                if performed.outcome == .continues {
                    stepAsideForUrgentThread(me, location)
                    return performed.reply
                }
                // A wait that timed out at once leaves its thread the running one.
                running = performed.outcome == .timedOut ? me : nil
            }
        }
    }

    /// When `me`'s operation unblocked a thread in a non-preemptible region, that thread
    /// runs at once: it holds a runtime lock that `me` may need before its next
    /// scheduling point.
    private func stepAsideForUrgentThread(_ me: Int, _ location: SeamLocation?) {
        guard let urgent = model.stepAside(me, at: location) else { return }
        switchTo(urgent, from: me)
        _ = perform(me)
    }

    func currentThread() -> Int {
        guard let thread = Seam.currentThread else {
            preconditionFailure("a harness operation ran on a thread the harness does not control")
        }
        return thread.rawValue
    }

    /// Runs `body` with cancellation disabled, telling it whether it was enabled; restoring
    /// the state afterwards is where a pending asynchronous cancellation acts.
    func withCancellationDisabled<Result>(_ body: (_ wasEnabled: Bool) -> Result) -> Result {
        var previous: Int32 = 0
        pthread_setcancelstate(Int32(PTHREAD_CANCEL_DISABLE), &previous)
        let result = body(previous == Int32(PTHREAD_CANCEL_ENABLE))
        watch.noteLeavingHarness()
        pthread_setcancelstate(previous, &previous)
        return result
    }

    /// ``withCancellationDisabled(_:)`` for `thread`, the calling thread. A coroutine shares
    /// its host's cancellation state and is never cancelled (``willCancel(_:at:)`` moves the
    /// execution to OS threads first): on one, `body` runs without the two calls, told that
    /// cancellation was enabled, as it is when a thread starts.
    func withCancellationDisabled<Result>(on thread: Int, _ body: (_ wasEnabled: Bool) -> Result) -> Result {
        guard backend.runsAsCoroutine(thread) else { return withCancellationDisabled(body) }
        let result = body(true)
        watch.noteLeavingHarness()
        return result
    }

    private func switchTo(_ next: Int, from me: Int) {
        backend.resume(next)
        backend.park(me)
        if aborting { exitForAbort(me) }
    }

    func finish() {
        done.store(true, ordering: .releasing)
        backend.finish()
    }

    func exitForAbort(_ me: Int) -> Never {
        backend.exit(me)
    }

    /// Picks the thread that runs next: asks the model until it names one, recording the
    /// steps it takes on the way (advancing the clock, spurious wake-ups). Between them, a
    /// job that escaped the harness fails the execution; when nothing can run, one may be
    /// on its way.
    func decide(running: Int?) -> Decision {
        while true {
            if !model.hasFailed, let escape = escape() {
                model.noteFailure(.escaped(escape))
            }
            let earlyTimeoutWithin =
                followsRecordedSchedule && replay?.isFollowing == true ? UInt64.max : limits.earlyTimeoutWithin
            switch model.decide(running: running, earlyTimeoutWithin: earlyTimeoutWithin) {
            case .choose(let candidates, let runningCandidate):
                let choice = choose(among: candidates, running: runningCandidate)
                switch model.take(choice, running: runningCandidate) {
                case .run(let thread):
                    return .run(thread)
                case .tookStep:
                    record(model.takeOwnStep())
                }
            case .run(let thread):
                return .run(thread)
            case .tookStep:
                record(model.takeOwnStep())
            case .allFinished:
                return .allFinished
            case .stuck:
                let tasksWait = asyncServices?.hasUnendedTasks == true
                if tasksWait, awaitForeignJob() { continue }
                model.failStuck(blockedTasks: tasksWait ? blockedTasks() : [])
                return .failed
            case .failed:
                return .failed
            }
        }
    }

    private func choose(among candidates: Candidates, running: Int?) -> Choice {
        if followsRecordedSchedule,
            let choice = replay?.choice(
                at: trace.steps.count, among: candidates, pending: { model.pendingKind(of: $0) })
        {
            return choice
        }
        return candidates[strategy.value.choose(among: candidates, running: running)].choice
    }

    /// Performs the pending operation of `me`, which was chosen. Returns what `me` does next
    /// (goes on, waits for a decision, or blocks) and what the operation hands back; ends the
    /// thread when the execution failed.
    func perform(_ me: Int) -> ExecutionModel.Performed {
        watch.noteRunning(me)
        let performed = model.perform(me)
        record(performed.step)
        if let created = performed.reply.createdThread { strategy.value.threadCreated(created, by: me) }
        if performed.outcome == .fails { exitForAbort(me) }
        return performed
    }

    // MARK: Winding down a failed execution

    /// Seam operations of threads running their cleanups after a failure: performed at once,
    /// without blocking, one thread at a time.
    private func performDuringAbort(_ me: Int, _ operation: PendingOperation) -> ExecutionModel.Reply {
        switch model.performWhileWindingDown(me, operation) {
        case .continues(let reply):
            if let created = reply.createdThread { strategy.value.threadCreated(created, by: me) }
            return reply
        case .waitsToJoin:
            handOffDuringAbort()
            backend.park(me)
            model.returnFromJoin(me)
            return .none
        case .failsToSpawn:
            exitForAbort(me)
        }
    }

    /// Passes control to the lowest-numbered thread that still has to exit, or ends the
    /// execution when none is left.
    func handOffDuringAbort() {
        if let next = model.nextToWindDown() {
            backend.resume(next)
        } else {
            finish()
        }
    }

    // MARK: Recording

    /// Adds a step the model took to the trace, and checks it against the replayed schedule
    /// (unless the execution had failed before it).
    func record(_ step: ExecutionModel.Step) {
        let index = trace.steps.count
        let encoded = trace.append(step)
        if followsRecordedSchedule, !step.followsFailure {
            replay?.check(encoded, at: index, step: trace.steps[index])
        }
    }

    /// The first job that escaped the execution, if one did, with its task as the execution
    /// numbers and names it. Call from the running thread, or once the execution has ended.
    func escape() -> JobEscape? {
        guard let job = asyncServices?.foreignJobs.first else { return nil }
        let task = trace.escapedTask(runtimeID: job.taskRuntimeID)
        return JobEscape(
            thread: job.thread,
            isMainThread: job.isMainThread,
            task: task?.task,
            taskName: task?.name,
            executorsOwned: ProcessExecutors.areTaken
        )
    }
}
