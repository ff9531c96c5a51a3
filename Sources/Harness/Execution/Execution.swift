import CShim
import Primitives
import Synchronization

/// One controlled execution of a scenario: a ``SeamController`` that runs exactly one of its
/// threads at a time and, at every seam operation, lets a strategy pick who runs next.
///
/// It is the driver of an ``ExecutionModel``, which holds the scheduling state and rules:
/// each seam operation becomes an event of the model, and the execution applies what the
/// model returns (runs a thread through the ``HandoffBackend``, records a step, ends a
/// thread, winds the execution down). The strategy and a replayed schedule choose at the
/// model's decisions; the trace, the replay's checks and the crash report are kept here,
/// where the runtime's current task and the process's crash reporter are at hand.
///
/// Its state is touched only by the running thread: control passes from thread to thread
/// through a ``HandoffBackend`` (futexes, for OS threads), whose release and acquire order
/// every access, so the state needs no lock. A decision that keeps the running thread costs no handoff.
/// For the same reason no two accesses to that state ever overlap, and it is exempt from
/// dynamic exclusivity checking (`@exclusivity(unchecked)`), which cost about a fifth of a
/// decision.
final class Execution: SeamController, SeamThreadHosting, @unchecked Sendable {
    /// The execution that controls the calling thread, if one does: the one place that asks
    /// the seam who runs this thread.
    static var current: Execution? { Seam.currentController as? Execution }

    struct Limits {
        var maxThreads = 64
        var maxSteps = 20_000
        var spuriousWakeups = true
        /// How far ahead of the clock (nanoseconds) a deadline may fire while other work could
        /// still run; `nil` only when nothing else can, `UInt64.max` for any deadline.
        var earlyTimeoutWithin: UInt64? = nil
        var stallTimeout: Duration = .seconds(20)
        var spinsBeforeSleeping: UInt32 = 4_000
        /// The CPU every thread of the execution is pinned to, so that a handoff wakes a
        /// thread on the same CPU (about 6 µs on Linux, against 70 µs across CPUs).
        var cpu: Int32? = nil
        /// Lane threads that run the scenario's task jobs.
        var executorLanes = 2
        /// How long (real time) a stuck execution whose tasks wait gives a job from outside
        /// the harness to arrive, so that the escape is reported rather than the deadlock it
        /// leaves (``awaitForeignJob()``).
        var foreignJobGrace: Duration = .seconds(1)
    }

    private enum Decision {
        case run(Int)
        case allFinished
        case failed
    }

    private let limits: Limits
    @exclusivity(unchecked) private var strategy: any SchedulingStrategy
    private let crashReport: UnsafeMutablePointer<cshim_crash_report>
    /// Where the steps' bytes go, for the crash report and an isolated child's parent; held
    /// while a thread of the execution may still write to it.
    private let record: ScheduleRecord
    @exclusivity(unchecked) private var stepByteCount = 0
    @exclusivity(unchecked) private var replay: ReplayFollower?
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

    /// The scheduling state; its events are sent, and its actions applied, only here.
    @exclusivity(unchecked) private var model: ExecutionModel
    @exclusivity(unchecked) private var taskNumbers: [UInt64: Int] = [:]
    /// The names of the tasks that took steps, by their number in ``TraceStep/task`` (from 1).
    @exclusivity(unchecked) private(set) var taskNames: [Int: String] = [:]
    @exclusivity(unchecked) private var tasksAsked: Set<Int> = []
    @exclusivity(unchecked) private var exiting: Set<Int> = []
    private let activity: ActivityCounter
    private let foreignJob = Atomic<Bool>(false)
    private let foreignJobOrigin = Mutex<ForeignJob?>(nil)
    @exclusivity(unchecked) private var asyncServices: AsyncServices?
    private let runningThread = Atomic<Int>(0)
    /// Stored (releasing) by every thread as it leaves the harness for its own code, and
    /// loaded (acquiring) by the thread that declares a stall before it reads or writes the
    /// execution's state: so that state is handed to it like a step is handed from thread to
    /// thread. Without it ThreadSanitizer reported the stall's write of `failure` as racing
    /// with the stalled thread's last step.
    private let leftHarness = Atomic<Int>(0)
    /// The OS thread each thread runs on (a coroutine's host), to read a stalled thread's
    /// state, CPU time and stack. Guarded by a pthread mutex (new threads record theirs at
    /// once): a contended `Synchronization.Mutex` hands over where ThreadSanitizer cannot
    /// see it, and it reported these writes as racing.
    private let threadHandlesMutex = SeamMutex()
    private var threadHandles: [Int: (handle: UInt, systemID: UInt64)] = [:]
    private let done = Atomic<Bool>(false)
    /// Threads the harness spawned for the scenario and its tasks that their owner has not
    /// joined yet.
    @exclusivity(unchecked) private var unjoinedHarnessThreads: [SeamThread] = []
    /// Every seam object the execution's threads used, kept alive until it ends (see
    /// ``identity(of:)``).
    @exclusivity(unchecked) private var seenObjects = ObjectMap<AnyObject>()

    /// The tasks (numbered from 1) that ran in the job each lane just finished, with their
    /// places, until its `takeJob` step is recorded.
    @exclusivity(unchecked) private var finishedJobs: [Int: [(task: Int, points: TaskJobPoints)]] = [:]
    /// The same, by the index of the `takeJob` step that ended each job.
    @exclusivity(unchecked) private var jobPoints: [Int: [(task: Int, points: TaskJobPoints)]] = [:]
    /// Where the tasks that ran in each job began and ended in the code under test, by the
    /// index of the `takeJob` step that ended the job; symbolicated on each call, for a report.
    var taskJobPlaces: [Int: [TaskJobPlaces]] {
        jobPoints.compactMapValues { ran in
            let places = ran.map { $0.points.places(task: $0.task) }.filter(\.namesUserCode)
            return places.isEmpty ? nil : places
        }
    }
    /// The steps taken so far; complete once ``run(_:)`` returned.
    @exclusivity(unchecked) private(set) var trace: [TraceStep] = []
    /// Why the execution failed, if it did: a job that escaped it first, whenever it came,
    /// since what failed after it may be its doing. Read once the execution has ended.
    var failure: ExecutionFailure? { escape().map(ExecutionFailure.escaped) ?? model.failure }
    /// The decisions taken: which thread or job ran, and who could have gone on.
    var decisions: [ScheduleDecision] { model.decisions }
    /// How many decisions ran another thread while the running one could go on.
    var preemptions: Int { model.preemptions }
    /// The order in which threads and tasks took each shared object.
    var fingerprint: InterleavingFingerprint { model.fingerprint }
    /// Whether the execution failed and its threads are winding down.
    private var aborting: Bool { model.isWindingDown }

    /// Creates an execution that counts its steps on `activity` and records them in
    /// `record`, begun for the token `tokenPrefix`; should one of its threads crash, the
    /// process prints `crashPrefix`, the schedule so far in base64url, and `crashSuffix`. Its
    /// scenario threads run as coroutines on stacks from `coroutineStacks` where this build
    /// can switch coroutines, on OS threads otherwise.
    init(
        strategy: any SchedulingStrategy,
        replay: ReplayFollower?,
        limits: Limits,
        threadPool: SeamThreadPool,
        coroutineStacks: CoroutineStacks?,
        activity: ActivityCounter,
        record: ScheduleRecord,
        tokenPrefix: String,
        crashPrefix: String,
        crashSuffix: String
    ) {
        self.strategy = strategy
        self.activity = activity
        self.replay = replay
        self.limits = limits
        self.threadPool = threadPool
        model = ExecutionModel(limits: limits)
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
        precondition(record.stepCapacity >= Self.stepByteCapacity(limits),
                     "the schedule record is too small for the limits")
        self.record = record
        record.begin(tokenPrefix: tokenPrefix)
        guard let report = cshim_crash_report_create(crashPrefix, crashSuffix, record.pointer) else {
            preconditionFailure("the harness ran out of memory creating an execution")
        }
        crashReport = report
        cshim_install_crash_reporter()
        GlobalEnqueueHook.install()
    }

    deinit {
        cshim_crash_report_destroy(crashReport)
    }

    /// How many bytes the steps of an execution under `limits` may take: three for each step
    /// the limits allow, with room to spare for the threads winding down past the bound.
    static func stepByteCapacity(_ limits: Limits) -> Int {
        3 * (limits.maxSteps + 2 * limits.maxThreads + 16)
    }

    /// Where the code first left the replayed schedule, once the execution has ended;
    /// `nil` when it followed it to the end, or replayed nothing.
    var replayDivergence: ReplayFollower.Divergence? {
        var follower = replay
        follower?.finish(after: trace.count)
        return follower?.divergence
    }

    /// How many threads the execution started, the root thread and the executor's included.
    var threadCount: Int { model.threads.count }

    /// Where the scenario's threads run: coroutines, or the pool's OS threads.
    var scenarioThreadHost: any SeamThreadHost { coroutines ?? threadPool }

    var hostForSpawnedThreads: (any SeamThreadHost)? { coroutines }

    /// The strategy, as it is after the execution (strategies carry state across executions).
    var finalStrategy: any SchedulingStrategy { strategy }

    // MARK: Driving

    /// Runs `body` as thread 0 and returns when every thread has finished, the execution
    /// failed and wound down, or it stalled.
    func run(_ body: @escaping @Sendable () -> Void) {
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

    /// Waits for the execution to end; fails it as stalled once the running thread, taking
    /// no step, has been blocked or busy for the stall timeout (``StallWatch``; checked a few
    /// times a second, so the stall is reported on time). A check that finds it runnable
    /// counts as a sign of life for an isolated child's heartbeat.
    private func waitUntilDone() {
        let slice = min(limits.stallTimeout, .milliseconds(250))
        let start = ContinuousClock.now
        var watch = StallWatch(timeout: limits.stallTimeout)
        while !handoff.awaitFinish(timeout: slice) {
            let thread = runningThread.load(ordering: .relaxed)
            let osThread = threadHandlesMutex.withLockDirectly { threadHandles[thread] }
            let verdict = watch.check(
                steps: activity.steps,
                thread: thread,
                activity: osThread.flatMap { ThreadActivity.read(systemID: $0.systemID) },
                now: ContinuousClock.now - start
            )
            switch verdict {
            case .progressed, .waiting:
                continue
            case .runnable:
                activity.noteRunnable()
            case .stalled(let stall):
                _ = leftHarness.load(ordering: .acquiring)
                let stack = osThread.flatMap { StallDiagnosis(thread: $0.handle) }
                model.noteStall(.stalled(
                    thread: thread,
                    seconds: stall.seconds,
                    diagnosis: StallDiagnosis.explanation(of: stall, stack: stack) + lastPlace(of: thread)
                ))
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
        point(.lock(identity(of: mutex), recursive: mutex.kind == .recursive), location)
    }

    func tryLock(_ mutex: SeamMutex, at location: SeamLocation) -> Bool {
        point(.tryLock(identity(of: mutex), recursive: mutex.kind == .recursive), location)
        return model.tryLockResult
    }

    func unlock(_ mutex: SeamMutex, at location: SeamLocation) {
        point(.unlock(identity(of: mutex)), location)
    }

    func wait(
        on condition: SeamCondition,
        releasing mutex: SeamMutex,
        deadline: SeamInstant?,
        at location: SeamLocation
    ) -> SeamWaitResult {
        let me = point(
            .wait(condition: identity(of: condition), mutex: identity(of: mutex), deadline: deadline?.nanoseconds),
            location
        )
        let result = model.threads[me].waitResult
        pthread_testcancel()
        return result
    }

    func signal(_ condition: SeamCondition, at location: SeamLocation) {
        point(.signal(identity(of: condition)), location)
    }

    func broadcast(_ condition: SeamCondition, at location: SeamLocation) {
        point(.broadcast(identity(of: condition)), location)
    }

    func willAccessAtomic(_ cell: AnyObject, _ access: SeamAtomicAccess, at location: SeamLocation) {
        point(.atomic(identity(of: cell), access), location)
    }

    /// The identity that names `object` (a mutex, a condition, an atomic cell) for the rest of
    /// the execution, which keeps the object alive until it ends. An object freed meanwhile
    /// would leave its address to the next one allocated at it, which would then share its
    /// name, its owner and its timeline in the fingerprint; which object gets a freed address
    /// depends on the allocator's state in the process, so the same seed gave different
    /// interleaving counts in different processes. Called by the running thread.
    private func identity(of object: AnyObject) -> ObjectIdentifier {
        let identity = ObjectIdentifier(object)
        seenObjects.insertIfAbsent(identity, object)
        return identity
    }

    func threadWillSpawn(at location: SeamLocation) -> SeamThreadID {
        point(.spawn, location)
        return SeamThreadID(rawValue: model.lastSpawned)
    }

    func threadSpawnFailed(_ thread: SeamThreadID) {
        withCancellationDisabled { _ in model.threadFailedToStart(thread.rawValue) }
    }

    func threadDidStart(_ thread: SeamThreadID) {
        withCancellationDisabled { _ in
            let me = thread.rawValue
            // Once per OS thread: the coroutines after the first share the host's.
            if me == 0 || coroutines?.runsAsCoroutine(me) != true {
                let error = cshim_set_thread_crash_report(crashReport)
                precondition(error == 0, "the harness could not give a thread its crash report: errno \(error)")
                cshim_allow_stack_capture()
                // Every thread, as a pooled one may have been pinned elsewhere before.
                if let cpu = limits.cpu {
                    _ = cshim_pin_current_thread_to_cpu(cpu)
                }
            }
            let osThread = (handle: cshim_current_thread_handle(), systemID: cshim_current_thread_system_id())
            threadHandlesMutex.withLockDirectly { threadHandles[me] = osThread }
            handoff.park(me)
            if aborting { exitForAbort(me) }
            _ = perform(me)
        }
    }

    func threadWillExit(_ thread: SeamThreadID) {
        withCancellationDisabled { _ in
            let me = thread.rawValue
            guard let step = model.exit(me) else {
                handOffDuringAbort()
                return
            }
            record(step)
            switch decide(running: nil) {
            case .run(let next):
                wakeThread(next)
            case .allFinished:
                finish()
            case .failed:
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
        SeamInstant(nanoseconds: model.clock)
    }

    func sleep(until deadline: SeamInstant, at location: SeamLocation) {
        point(.sleep(until: deadline.nanoseconds), location)
    }

    func willResumeContinuation(at location: SeamLocation) {
        point(.resume, location)
    }

    func enterNonPreemptibleRegion() {
        withCancellationDisabled { _ in model.enterNonPreemptibleRegion(currentThread()) }
    }

    func exitNonPreemptibleRegion() {
        withCancellationDisabled { _ in model.exitNonPreemptibleRegion(currentThread()) }
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
        model.noteInternalObjects(services.synchronizationObjects)
        services.start(lanes: limits.executorLanes)
        return services
    }

    /// The execution's task executor, if something started it.
    var startedServices: AsyncServices? { asyncServices }

    /// Lets the tasks finish and the executor's threads exit; called as thread 0 ends, once
    /// every task has ended or waits for good. Tasks that wait for good (a `Task {}` the
    /// scenario did not wait for, left on a continuation nobody resumes) fail the execution.
    func closeServices() {
        guard let asyncServices else { return }
        if asyncServices.hasUnendedTasks, escape() == nil {
            failAtNextDecision(.tasksDeadlocked(tasks: blockedTasks()))
        }
        asyncServices.close()
    }

    /// The execution's tasks that have not ended, as a deadlock lists them: numbered, named,
    /// and where in the code under test each waits. Call when no other thread or task runs,
    /// and no job escaped (a task running outside the harness is not suspended).
    private func blockedTasks() -> [BlockedTask] {
        (asyncServices?.unendedTasks ?? []).map { task in
            let number = taskNumber(runtimeID: task.runtimeID) + 1
            let places = ResumePointSymbols.userPlaces(of: task.resumePoints)
            return BlockedTask(task: number, name: taskNames[number], waitsAt: places.first, startedIn: places.last)
        }
    }

    /// The scheduling point of a thread that has just queued `job` on the scenario's
    /// executor: a lane may take the job before the thread goes on.
    func jobEnqueued(_ job: JobIdentity) {
        point(.enqueueJob(task: job.task), nil)
    }

    /// The scheduling point of a lane that finished a job (in which the tasks of `ran` ran,
    /// with their places), before it takes the next: any other thread may run first, and jobs queued
    /// meanwhile compete for the lane.
    func laneWillTakeJob(after ran: [(runtimeID: UInt64, points: TaskJobPoints)]) {
        if !ran.isEmpty {
            withCancellationDisabled { _ in
                finishedJobs[currentThread()] = ran.map { (taskNumber(runtimeID: $0.runtimeID) + 1, $0.points) }
            }
        }
        point(.takeJob, nil)
        withCancellationDisabled { _ in model.lane(currentThread(), runs: nil) }
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
                model.lane(me, runs: jobs.first)
                return 0
            }
            let index: Int
            if let choice = replay?.jobChoice(at: trace.count, among: count) {
                index = choice
            } else {
                let options = jobs.map { Candidate(.job($0), access: Access(object: .jobQueue, isRead: false)) }
                index = strategy.choose(among: options, running: nil)
            }
            record(model.lane(me, chose: index, among: jobs))
            return index
        }
    }

    /// Starts a thread of the task executor (a lane, the timer thread): its steps outside a
    /// task's job are the harness's own bookkeeping.
    func spawnExecutorThread(interchangeable: Bool, _ body: @escaping @Sendable () -> Void) -> SeamThread {
        model.roleOfSpawnedThreads = interchangeable ? .interchangeableLane : .executor
        defer { model.roleOfSpawnedThreads = .scenario }
        switch Seam.spawnThread(on: threadPool, body) {
        case .success(let thread):
            spawnedHarnessThread(thread)
            return thread
        case .failure(let error): preconditionFailure("the harness could not start an executor thread: \(error)")
        }
    }

    /// When nothing can run while tasks wait, one of them may be waiting for work outside the
    /// harness: gives a job enqueued from elsewhere up to the limits' grace (real time; the
    /// platform's executors can take a second to run it) to show up, so the escape is
    /// reported as such rather than as a deadlock. Returns whether one did (the next decision
    /// then fails). A job later than that leaves the deadlock the escape caused reported,
    /// with the task and where it waits.
    private func awaitForeignJob() -> Bool {
        guard asyncServices != nil else { return false }
        let (seconds, attoseconds) = limits.foreignJobGrace.components
        for _ in 0..<(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) {
            if foreignJob.load(ordering: .acquiring) { return true }
            _ = cshim_sleep_until_monotonic(cshim_monotonic_now_ns() + 1_000_000)
        }
        return false
    }

    /// A job was enqueued from a thread this execution does not control: it escaped the
    /// harness (`Task {}`, `Task.detached`, `MainActor`, a foreign thread). Safe to call
    /// from any thread; the execution fails at its next decision.
    func noteForeignJob(_ job: ForeignJob) {
        foreignJobOrigin.withLock { $0 = $0 ?? job }
        foreignJob.store(true, ordering: .releasing)
    }

    /// The first job that escaped the execution, if one did, with its task as the execution
    /// numbers and names it. Call from the running thread, or once the execution has ended.
    private func escape() -> JobEscape? {
        guard foreignJob.load(ordering: .acquiring), let job = foreignJobOrigin.withLock({ $0 }) else { return nil }
        let task = job.taskRuntimeID == 0 ? nil : taskNumbers[job.taskRuntimeID].map { $0 + 1 }
        return JobEscape(
            thread: job.thread,
            isMainThread: job.isMainThread,
            task: task,
            taskName: task.flatMap { taskNames[$0] },
            executorsOwned: ProcessExecutors.areTaken
        )
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
        withCancellationDisabled { _ in model.noteFailure(failure) }
    }

    // MARK: Failing from a thread

    /// Records `failure` on behalf of the running thread and ends the thread; the other
    /// threads are wound down one at a time.
    func fail(_ failure: ExecutionFailure) -> Never {
        let me = currentThread()
        var previous: Int32 = 0
        pthread_setcancelstate(Int32(PTHREAD_CANCEL_DISABLE), &previous)
        model.windDown(after: failure)
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
            var running: Int? = me
            if model.arrive(me, at: operation, location: location, cancellable: cancellable) == .performsAtOnce {
                let outcome = perform(me)
                if outcome == .continues { return me }
                running = outcome == .timedOut ? me : nil
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
                let outcome = perform(me)
                if outcome == .continues {
                    stepAsideForUrgentThread(me, location)
                    return me
                }
                // A wait that timed out at once leaves its thread the running one.
                running = outcome == .timedOut ? me : nil
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

    /// Picks the thread that runs next: asks the model until it names one, recording the
    /// steps it takes on the way (advancing the clock, spurious wake-ups). Between them, a
    /// job that escaped the harness fails the execution; when nothing can run, one may be
    /// on its way.
    private func decide(running: Int?) -> Decision {
        while true {
            if model.failure == nil, let escape = escape() {
                model.noteFailure(.escaped(escape))
            }
            let earlyTimeoutWithin = replay?.isFollowing == true ? UInt64.max : limits.earlyTimeoutWithin
            let decision = model.decide(
                running: running,
                earlyTimeoutWithin: earlyTimeoutWithin
            ) { candidates, running, describe in
                choose(among: candidates, running: running, describe: describe)
            }
            switch decision {
            case .run(let thread):
                return .run(thread)
            case .tookStep(let step):
                record(step)
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

    private func choose(among candidates: [Candidate], running: Int?, describe: (Int) -> String) -> Choice {
        if let choice = replay?.choice(at: trace.count, among: candidates, describe: { "T\($0) (\(describe($0)))" }) {
            return choice
        }
        return candidates[strategy.choose(among: candidates, running: running)].choice
    }

    /// Performs the pending operation of `me`, which was chosen. Returns what `me` does next:
    /// goes on, waits for a decision (a wait that timed out at once re-acquires its mutex)
    /// or blocks (a condition wait); ends the thread when the execution failed.
    private func perform(_ me: Int) -> ExecutionModel.PerformOutcome {
        runningThread.store(me, ordering: .relaxed)
        let performed = model.perform(me)
        record(performed.step)
        if let created = performed.createdThread { strategy.threadCreated(created, by: me) }
        if performed.outcome == .fails { exitForAbort(me) }
        return performed.outcome
    }

    // MARK: Winding down a failed execution

    /// Seam operations of threads running their cleanups after a failure: performed at once,
    /// without blocking, one thread at a time.
    private func performDuringAbort(_ me: Int, _ operation: PendingOperation) {
        switch model.performWhileWindingDown(me, operation) {
        case .continues(let created):
            if let created { strategy.threadCreated(created, by: me) }
        case .waitsToJoin:
            handOffDuringAbort()
            handoff.park(me)
            model.returnFromJoin(me)
        }
    }

    /// Passes control to the lowest-numbered thread that still has to exit, or ends the
    /// execution when none is left.
    private func handOffDuringAbort() {
        if let next = model.nextToWindDown() {
            wakeThread(next)
        } else {
            finish()
        }
    }

    // MARK: Describing

    /// Adds a step the model took to the trace, the crash report's bytes and the replay's
    /// checks (unless the execution had failed before it).
    private func record(_ step: ExecutionModel.Step) {
        let task = step.isOnExecutorThread ? taskOfStep(step) : nil
        let isBookkeeping = Self.isBookkeeping(step.kind, at: step.location) || (step.isOnExecutorThread && task == nil)
        if let task, !isBookkeeping, step.kind != .chooseJob, step.kind != .takeJob { nameTask(task) }
        let traceStep = TraceStep(
            thread: step.thread,
            kind: step.kind,
            target: step.target,
            choice: step.choice,
            location: step.location,
            task: task.map { $0 + 1 },
            isBookkeeping: isBookkeeping
        )
        if step.kind == .takeJob, let thread = step.thread, let job = finishedJobs.removeValue(forKey: thread) {
            jobPoints[trace.count] = job
        }
        let encoded = EncodedStep(traceStep)
        if !step.followsFailure {
            replay?.check(encoded, at: trace.count, summary: traceStep.summary)
        }
        trace.append(traceStep)
        if stepByteCount + encoded.byteCount <= record.stepCapacity {
            encoded.forEachByte { byte in
                record.stepBytes[stepByteCount] = byte
                stepByteCount += 1
            }
            record.setByteCount(stepByteCount)
        }
        activity.noteStep()
    }

    /// Whether a step is the harness's own: taken in the harness's code.
    private static func isBookkeeping(_ kind: OperationKind, at location: SeamLocation?) -> Bool {
        location?.fileIDHasPrefix("Harness/") == true
    }

    /// The task (numbered from 0) a step of an executor thread belongs to: the task the
    /// runtime runs on the calling thread, or, when a lane picks or finishes a task's job,
    /// that task.
    private func taskOfStep(_ step: ExecutionModel.Step) -> Int? {
        if step.kind == .chooseJob || step.kind == .takeJob { return step.job?.task }
        guard step.job != nil, let runtimeID = currentTaskRuntimeID() else { return nil }
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
}

/// A job enqueued from a thread an execution does not control, as the thread saw it.
struct ForeignJob: Sendable {
    /// The thread's name, `nil` when it has none.
    let thread: String?
    let isMainThread: Bool
    /// The runtime's ID of the job's task, 0 for a job of no task.
    let taskRuntimeID: UInt64
}
