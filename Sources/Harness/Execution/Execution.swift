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

    // What one run of the execution begins with (``restart(_:)``).
    /// The recorded schedule the strategy follows, checked step by step.
    @exclusivity(unchecked) var replay: ReplayFollower?
    /// Whether there is a recorded schedule to follow: asked before ``replay`` at every step,
    /// as a plain flag, where reading the optional follower's case took a call.
    @exclusivity(unchecked) private(set) var followsRecordedSchedule: Bool
    /// The setting's record's crash report, its texts this run's.
    @exclusivity(unchecked) private(set) var crashReport: UnsafeMutablePointer<cshim_crash_report>
    /// Which run on the execution this is, from 0: the watcher of a runner claims the end of
    /// the run it watched (``claim(_:of:)``), never of a later one.
    @exclusivity(unchecked) private(set) var run = 0

    // What every run on the execution shares: its plans differ only in what a run is given
    // (``canRestart(_:)``). Constants, not variables of a run: reading a variable strategy at
    // every decision retained and released it, and took the model's `perform` out of line,
    // 2 % more instructions a schedule.
    let limits: Limits
    /// The strategy, lent by the search (``StrategyCell``).
    let strategy: StrategyCell
    /// The setting of every plan the execution runs.
    private let setting: ExecutionSetting
    /// The scenario, run as thread 0 (``ExecutionSetting/scenario``).
    private let scenario: @Sendable () -> Void
    let backend: any HandoffBackend
    /// Where the execution's OS threads run: OS threads reused from one execution to the next.
    let threadPool: SeamThreadPool
    /// Where the scenario's threads run: the backend's coroutines, or the pool's OS threads.
    let scenarioThreadHost: any SeamThreadHost
    /// Where the steps and decisions are stored, and given back to once the record is made.
    let storage: RecordStorage
    let watch: ExecutionWatch
    /// The storage of a lane's choice among queued jobs (``chooseJob(among:)``), kept between
    /// choices.
    let jobCandidates: CandidateList

    // The state of a run.
    /// Why the execution stopped to be run again on OS threads (``ExecutionRecord/needsOSThreads``).
    @exclusivity(unchecked) var needsOSThreads: Nondeterminism?
    /// The scheduling state; its events are sent, and its actions applied, only here.
    @exclusivity(unchecked) var model: ExecutionModel
    @exclusivity(unchecked) var trace: TraceRecorder
    @exclusivity(unchecked) var asyncServices: AsyncServices<Execution>?
    /// Where the task executor notes the jobs that escaped the execution, once it started:
    /// read at every decision, unretained, as the executor holds it for as long as the
    /// execution holds the executor. Read through ``asyncServices``, each decision retained
    /// and released the executor.
    @exclusivity(unchecked) var escapedJobs: Unmanaged<ForeignJobs>?
    private let done = Atomic<Bool>(false)
    /// Who ended the current run (an ``Ending``, added to four times ``run``); four times
    /// ``run`` while nobody has.
    private let ended = Atomic<Int>(0)
    @exclusivity(unchecked) var unjoinedThreads = UnjoinedThreads()
    /// Every seam object the execution's threads used, kept alive until it ends (see
    /// ``identity(of:)``).
    @exclusivity(unchecked) var seenObjects = ObjectMap<AnyObject>()
    /// What the task executor of an earlier run left (its synchronization and storage), for
    /// ``services()`` to start this one's with.
    @exclusivity(unchecked) var executorLeftovers = AsyncServices<Execution>.Leftovers()

    /// What an execution that ended leaves for a new one on its runner
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
        fileprivate var executor = AsyncServices<Execution>.Leftovers()
    }

    /// Whether the execution failed and its threads are winding down.
    var aborting: Bool { model.isWindingDown }

    private init(_ plan: borrowing ExecutionPlan, reusing leftovers: inout Leftovers) {
        setting = plan.setting
        scenario = setting.scenario
        strategy = plan.strategy
        limits = plan.limits
        (replay, followsRecordedSchedule) = Self.follower(of: plan)
        threadPool = setting.threadPool
        storage = setting.storage
        var arrays = setting.storage.take()
        model = ExecutionModel(limits: plan.limits, decisionStorage: &arrays.decisions, reusing: &leftovers.model)
        precondition(
            setting.record.stepCapacity >= Self.stepByteCapacity(plan.limits),
            "the schedule record is too small for the limits")
        // The storage moved in, never copied: a copy left here would make the trace's room for
        // its steps a new allocation.
        trace = TraceRecorder(
            record: setting.record, activity: setting.activity, storage: consume arrays, reusing: &leftovers.trace)
        crashReport = Self.crashReport(of: setting)
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
                coroutineStacks: setting.coroutineStacks,
                pool: setting.threadPool
            )
        }
        scenarioThreadHost = backend.coroutineHost ?? threadPool
        ProcessHooks.installForExecutions()
    }

    /// Whether the execution can run `plan` next (``restart(_:)``): the plan has the setting,
    /// the strategy and the limits of the execution's first, and hands it the same handoff,
    /// as the plans of an exploration's search do (not those of its shrinking).
    private func canRestart(_ plan: borrowing ExecutionPlan) -> Bool {
        plan.setting === setting && plan.strategy === strategy && plan.limits == limits
            && plan.reusedHandoff === backend
    }

    /// Readies the execution, whose last run ended with every thread joined, to run `plan` in
    /// what that run grew, as the next run on the same runner: what an execution allocates
    /// and retains when made (its model, trace, watch and lists, the references to its
    /// setting's parts) is made once a runner. Only when ``canRestart(_:)``.
    private func restart(_ plan: borrowing ExecutionPlan) {
        run += 1
        ended.store(4 * run, ordering: .relaxed)
        done.store(false, ordering: .relaxed)
        needsOSThreads = nil
        (replay, followsRecordedSchedule) = Self.follower(of: plan)
        var arrays = storage.take()
        model.restart(decisionStorage: &arrays.decisions)
        trace.restart(storage: consume arrays)
        crashReport = Self.crashReport(of: setting)
        plan.reusedHandoff?.reset()
    }

    /// The follower of `plan`'s recorded schedule, if its strategy follows one, and whether it does.
    private static func follower(of plan: borrowing ExecutionPlan) -> (ReplayFollower?, Bool) {
        let follower = plan.strategy.value.recordedSchedule.map(ReplayFollower.init(steps:))
        return (follower, follower != nil)
    }

    /// `setting`'s record begun for the execution its texts name, and its crash report with
    /// the execution's texts.
    private static func crashReport(of setting: ExecutionSetting) -> UnsafeMutablePointer<cshim_crash_report> {
        let record = setting.record
        return setting.texts.withCStrings { token, crashPrefix, crashSuffix in
            record.begin(tokenPrefix: token)
            return record.crashReport(prefix: crashPrefix, suffix: crashSuffix)
        }
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
            of: execution.backend, activity: plan.setting.activity, timeout: plan.limits.stallTimeout)
        {
            execution.noteStalled(stalled)
        }
        execution.joinIfDone(root)
        return execution.record()
    }

    /// Runs `plan`'s scenario as thread 0 with its coroutines on the calling thread, watched
    /// for a stall by `runner`'s watcher, on the execution that ran the last plan on the runner
    /// (`reusable`) when it can; returns what the execution did once every thread has finished
    /// or the execution failed and wound down, and leaves the execution in `reusable` for the
    /// next plan when every thread was joined; `nil` when the watcher found it stalled first
    /// and took it over (``RunnerWatch``): then the caller must leave it alone. No OS thread but
    /// the caller's takes part when every scenario thread is a coroutine.
    static func run(_ plan: ExecutionPlan, on runner: ExecutionRunner, reusing reusable: inout Execution?)
        -> ExecutionRecord?
    {
        let execution: Execution
        // Asked where it is kept and then moved out: bound to a name of its own, the last
        // execution was retained, and again as the one that runs.
        if reusable?.canRestart(plan) == true {
            execution = reusable.take().unsafelyUnwrapped
            execution.restart(plan)
        } else {
            // A plan the last execution cannot run (the runner's first, one on OS threads, one
            // of a shrinking) takes only the storage that execution grew.
            var leftovers = Leftovers()
            reusable.take()?.leave(in: &leftovers)
            execution = Execution(plan, reusing: &leftovers)
        }
        execution.backend.hostOnCallingThread()
        runner.begin(execution, run: execution.run, activity: plan.setting.activity)
        let root = execution.start()
        execution.backend.hostUntilFinished()
        guard execution.claim(.ended, of: execution.run) else { return nil }
        runner.end()
        execution.joinIfDone(root)
        let record = execution.record()
        if execution.done.load(ordering: .acquiring) {
            execution.endRun()
            reusable = execution
        }
        return record
    }

    /// Starts thread 0, which runs the scenario and then closes the execution's services.
    /// Its entry is a function given the execution unretained, not a closure made for each
    /// execution: the thread's seam slot holds its controller, the execution, until it exits.
    private func start() -> SeamThread {
        strategy.value.threadCreated(0, by: nil)
        let started = Seam.spawnThread(
            on: scenarioThreadHost, controlledBy: self, as: SeamThreadID(rawValue: 0),
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

    /// Claims the end of run `run` for `ending`: `true` for the first claim of the run only,
    /// `false` once a later run began. The loser leaves the execution alone.
    func claim(_ ending: Ending, of run: Int) -> Bool {
        ended.compareExchange(
            expected: 4 * run, desired: 4 * run + Int(ending.rawValue), ordering: .acquiringAndReleasing
        ).exchanged
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
        // Numbered outside a closure: read in one, the whole trace was copied for the call.
        var taskCreations: [Int: TaskCreationSite] = [:]
        if let asyncServices { taskCreations = trace.numbered(asyncServices.creationSites) }
        let stacksRead = asyncServices?.stacksRead ?? []
        let record = ExecutionRecord(
            steps: trace.steps,
            failure: escape().map(ExecutionFailure.escaped) ?? model.failure,
            decisions: model.decisions,
            preemptions: model.preemptions,
            fingerprint: model.fingerprint.value,
            threadCount: model.threads.count,
            taskNames: trace.taskNames,
            jobPoints: trace.jobPoints,
            stacksRead: stacksRead,
            taskCreations: taskCreations,
            replayDivergence: follower?.divergence,
            needsOSThreads: needsOSThreads
        )
        storage.giveBack(
            RecordStorage.Arrays(
                steps: trace.steps.steps, decisions: model.decisions, taskNames: trace.taskNames,
                jobPoints: trace.jobPoints))
        return record
    }

    /// Empties what the execution keeps for its next run, keeping its capacity, and lets go of
    /// the seam objects its threads used and of its task executor; call once a run ended with
    /// every thread joined and its record was made.
    private func endRun() {
        watch.reset()
        jobCandidates.removeAll()
        seenObjects.removeAll()
        asyncServices?.leave(in: &executorLeftovers)
        asyncServices = nil
        escapedJobs = nil
    }

    /// Empties the execution's storage into `leftovers`, for a new execution on its runner;
    /// call once its last run ended (``endRun()``), which leaves it spent.
    private func leave(in leftovers: inout Leftovers) {
        model.leave(in: &leftovers.model)
        trace.leave(in: &leftovers.trace)
        leftovers.watch = watch
        leftovers.jobCandidates = jobCandidates
        swap(&leftovers.unjoinedThreads, &unjoinedThreads)
        swap(&leftovers.seenObjects, &seenObjects)
        swap(&leftovers.executor, &executorLeftovers)
    }

    // MARK: Scheduling

    /// A scheduling point of the calling thread: returns when it has been chosen and has
    /// performed `operation`, with what the operation hands back.
    @discardableResult
    func point(_ operation: PendingOperation, _ location: SeamLocation?) -> ExecutionModel.Reply {
        let me = currentThread()
        if case .join(let target) = operation, !aborting, model.isRetiringLane(target) {
            joinRetiringLane(target, by: me)
            return .none
        }
        // The harness's own synchronization, performed at once, reaches no cancellation point
        // and leaves the thread's cancellation state alone: the executor's bookkeeping makes
        // most of an actor scenario's seam operations.
        if !aborting, let (outcome, reply) = model.performQuietly(me, operation, at: location) {
            if outcome == .fails { withCancellationDisabled { _ in exitForAbort(me) } }
            if let created = reply.createdThread { strategy.value.threadCreated(created, by: me) }
            watch.noteLeavingHarness()
            return reply
        }
        return withCancellationDisabled(on: me) { cancellable in
            if aborting { return performDuringAbort(me, operation) }
            var running: Int? = me
            if let performed = performDecidedAtArrival(me, operation, location, cancellable: cancellable) {
                if performed.outcome == .continues {
                    stepAsideForUrgentThread(me, location)
                    return performed.reply
                }
                running = performed.outcome == .timedOut ? me : nil
            } else if model.arrive(me, at: operation, location: location, cancellable: cancellable) == .performsAtOnce {
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

    /// `me` joins `lane`, a lane of a closed, quiet executor with nothing left but to exit:
    /// the lane runs to its end at once, without a decision, and neither it nor the join takes
    /// a step (``ExecutionModel/retire(_:joinedBy:)``).
    private func joinRetiringLane(_ lane: Int, by me: Int) {
        withCancellationDisabled(on: me) { _ in
            model.retire(lane, joinedBy: me)
            switchTo(lane, from: me)
            watch.noteRunning(me)
        }
    }

    /// Decides at `me`'s arrival at `operation` while `me` still runs, when the model can
    /// (``ExecutionModel/decide(arriving:at:cancellable:)``), and has `me` perform it: at once
    /// when the strategy keeps `me` running, else once a later decision runs it again. `nil`,
    /// with nothing done, when the decision takes the general path: a replay that follows its
    /// schedule checks each decision against the model's pending operations, and an escaped
    /// job fails the execution there.
    private func performDecidedAtArrival(
        _ me: Int, _ operation: PendingOperation, _ location: SeamLocation?, cancellable: Bool
    ) -> AfterStep? {
        guard !followsRecordedSchedule, escapedJobs?._withUnsafeGuaranteedRef({ $0.hasArrived }) != true,
            case .choose(let candidates, let runningCandidate)? = model.decide(
                arriving: me, at: operation, cancellable: cancellable)
        else { return nil }
        let choice = choose(among: candidates, running: runningCandidate)
        let next = model.take(choice, running: runningCandidate, arriving: me, at: operation, location: location)
        guard next == me else {
            switchTo(next, from: me)
            return perform(me)
        }
        watch.noteRunning(me)
        return performed(model.perform(operation, of: me, at: location), by: me)
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
    func perform(_ me: Int) -> AfterStep {
        watch.noteRunning(me)
        if model.retiring?.lane == me {
            model.resumeRetiringLane()
            return AfterStep(outcome: .continues, reply: .none)
        }
        return performed(model.perform(me), by: me)
    }

    /// What a thread does after a step it performed, and what the step handed back: the step
    /// itself is recorded by then. Returned without the step, which is larger than a
    /// return in registers holds, and copied at every step when it was carried further.
    struct AfterStep {
        let outcome: ExecutionModel.PerformOutcome
        let reply: ExecutionModel.Reply
    }

    /// Records the step `me` took by `performed`, and what follows from it.
    private func performed(_ performed: ExecutionModel.Performed, by me: Int) -> AfterStep {
        record(performed.step)
        if let created = performed.reply.createdThread { strategy.value.threadCreated(created, by: me) }
        if performed.outcome == .fails { exitForAbort(me) }
        return AfterStep(outcome: performed.outcome, reply: performed.reply)
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
        guard let job = escapedJobs?._withUnsafeGuaranteedRef({ $0.first }) else { return nil }
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
