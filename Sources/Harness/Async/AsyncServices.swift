@_spi(ExperimentalScheduling) import _Concurrency
import CShim
import Foundation
import Primitives
import Synchronization

/// The Swift-concurrency side of one execution: a task executor whose jobs run on
/// controlled lane threads, one job at a time per lane, in an order the strategy picks; a
/// lane of its own for `MainActor` jobs, when the harness owns the process's executors
/// (``ProcessExecutors``); and a timer thread that wakes sleepers on the virtual clock:
/// ``SeamClock``'s, and `Task.sleep` on the system clocks (the executor schedules delayed
/// jobs, so a task preferring it sleeps on virtual time wherever it runs, on an actor too).
///
/// It runs until every job, timer and outstanding task is done: a task the scenario did not
/// wait for still runs to its end, or to where it waits for good.
///
/// Its state is touched only by the execution's controlled threads, which run one at a
/// time and switch only at scheduling points, and no code that touches it has one inside:
/// so no two accesses to it overlap. It is exempt from dynamic exclusivity checking
/// (`@exclusivity(unchecked)`): `swift_beginAccess` and `swift_endAccess` took 4 % of the
/// actor scenario's time, a hundred calls a schedule. The lanes, and ``waitUntilQuiet()``,
/// wait in the execution's model, which the executor tells what they wait for
/// (``noteState()``); the main lane and the timer thread wait on conditions of their own,
/// under a seam mutex taken only to wait (``withState(_:)``). So threads and tasks share
/// one scheduler.
///
/// The execution treats these as its own synchronization (``ExecutorSynchronization/objects``):
/// operations on them take no decision unless they block, so schedules interleave at the
/// scenario's operations, not at the executor's bookkeeping.
/// The executor's own scheduling points are where its effects can be seen: after a job is
/// queued (a lane may take it before the enqueuer goes on), before a lane takes its next
/// job, and the choice among queued jobs.
final class AsyncServices<Scheduler: TaskScheduling>: TaskExecutor, @unchecked Sendable {
    private struct Timer {
        let deadline: SeamInstant
        let order: Int
        let wake: @Sendable () -> Void
    }

    /// The execution, while it runs; called only from its controlled threads (see
    /// ``isCalledByExecution(_:)``), never once it is gone, and borrowed for each call
    /// (``scheduling(_:)``): a lane's every job calls it several times, and each call through
    /// an unowned reference checked and retained it, and released it after.
    private let scheduler: Unmanaged<Scheduler>
    /// Where a job from a thread the execution does not control is noted: only this executor
    /// can receive one. Held here, so that it outlives the execution.
    let foreignJobs = ForeignJobs()
    /// The mutex, taken only to wait on a condition (``withState(_:)``), and the conditions:
    /// `MainActor` jobs queued and timers changed. The lanes wait for jobs, and
    /// ``waitUntilQuiet()`` for the executor to fall quiet, in the execution's model instead
    /// (``noteState()``).
    let synchronization: ExecutorSynchronization
    private var mutex: SeamMutex { synchronization.mutex }
    private var mainJobQueued: ExecutorCondition { synchronization.mainJobQueued }
    private var timersChanged: ExecutorCondition { synchronization.timersChanged }
    /// The queued jobs, and what each is to the strategy, index for index: the strategy is
    /// handed `jobIdentities` itself, which costs no copy.
    @exclusivity(unchecked) private var jobs: [UnownedJob] = []
    @exclusivity(unchecked) private var jobIdentities: [JobIdentity] = []
    /// `MainActor` jobs, run one at a time in the order they came, as the main queue runs them.
    @exclusivity(unchecked) private var mainJobs: [(job: UnownedJob, identity: JobIdentity)] = []
    @exclusivity(unchecked) private var jobsEnqueued = 0
    /// Jobs a lane has taken and not finished.
    @exclusivity(unchecked) private var jobsRunning = 0
    @exclusivity(unchecked) private var timers: [Timer] = []
    @exclusivity(unchecked) private var timersAdded = 0
    @exclusivity(unchecked) private var outstandingTasks = 0
    /// When each lane's job began, and how long each task has run, and waited for a lane
    /// after queuing itself, since it last suspended: a sleep that reads the real clock
    /// (`Task.sleep(for:)`) read it in that time (``SleepDeadline``).
    @exclusivity(unchecked) private var runTimes = TaskRunTimes()
    /// Whether the lanes read each task's whole async stack as a job begins and ends
    /// (``TaskJobPoints/stacks``); set as they start.
    @exclusivity(unchecked) private var readsAsyncStacks = false
    /// The whole async stacks the lanes read, in the order they read them; empty unless they
    /// read them. Read once the execution has ended.
    @exclusivity(unchecked) private(set) var stacksRead: [TaskJobPoints.Stacks] = []
    /// The tasks whose jobs came here, held until they end (``RuntimeTask``), in the order
    /// they first came: when nothing is left to run, those that have not ended wait for good.
    @exclusivity(unchecked) private var heldTasks: [(runtimeID: UInt64, task: RuntimeTask)] = []
    /// Where the code created each task whose jobs came here, by its runtime ID: the stack
    /// of the thread that queued its first job. Read once the execution has ended. A task
    /// the scenario started (``startTask(named:at:_:)``) has none: it is named as it is queued.
    @exclusivity(unchecked) private(set) var creationSites: [UInt64: TaskCreationSite] = [:]
    /// Tasks in ``waitUntilOthersQuiet()``, each counted in `outstandingTasks` too.
    @exclusivity(unchecked) private var othersQuietWaiters: [UnsafeContinuation<Void, Never>] = []
    @exclusivity(unchecked) private var closed = false
    /// Whether the scenario abandoned the tasks that wait for good
    /// (``abandonSuspendedTasks()``): they count as ended.
    @exclusivity(unchecked) private var suspendedTasksAbandoned = false
    @exclusivity(unchecked) private var threads: [SeamThread] = []
    @exclusivity(unchecked) private var timerThreadStarted = false
    @exclusivity(unchecked) private var mainLaneStarted = false
    /// Whether a task made elsewhere (``startTask(name:createdBy:_:)``) is being created, and
    /// its first job once it has arrived. A lock of the process's own, not a seam mutex: the
    /// job arrives from a thread the execution does not control.
    private let admission = DirectlyLocked(Admission.closed)
    /// Whether ``admission`` may be other than closed: set before it opens and cleared after
    /// it closes, so that a job queued while no task is being created elsewhere, nearly
    /// every job, takes no lock to learn that it is not that task's first.
    private let admissionMayBeOpen = Atomic<Bool>(false)

    private enum Admission {
        /// No task is being created elsewhere.
        case closed
        /// A task is being created elsewhere; its first job has not arrived.
        case open
        /// The first job of the task being created elsewhere.
        case arrived(UnownedJob)
    }

    /// Each lane's notes of the tasks a job may run and of those that ran and ended
    /// (``runLane(main:)``), kept from job to job, and from one execution to the next.
    fileprivate struct LaneStorage {
        var unended: [(runtimeID: UInt64, task: RuntimeTask, state: RuntimeTask.ResumeState)] = []
        /// The whole async stack of each task of `unended`, index for index, when the lanes
        /// read them (``readsAsyncStacks``); empty otherwise.
        var stacks: [[UInt]] = []
        var ran: [(runtimeID: UInt64, points: TaskJobPoints)] = []
        var ended: [RuntimeTask] = []
    }

    /// The storage of the lanes that ended, for the lanes started next.
    @exclusivity(unchecked) private var laneStorage: [LaneStorage] = []

    /// What the executor of an execution that ended leaves for the next one's on the same
    /// runner (``leave(in:)``): its synchronization, and the storage its lists grew, emptied
    /// with their capacity kept, so that an executor no busier than those before it allocates
    /// none of it. Only ``leave(in:)`` gives one storage, so what it holds is always empty.
    struct Leftovers {
        fileprivate var synchronization: ExecutorSynchronization?
        fileprivate var jobs: [UnownedJob] = []
        fileprivate var jobIdentities: [JobIdentity] = []
        fileprivate var heldTasks: [(runtimeID: UInt64, task: RuntimeTask)] = []
        fileprivate var threads: [SeamThread] = []
        fileprivate var laneStorage: [LaneStorage] = []
        fileprivate var runTimes = TaskRunTimes()
    }

    /// The executor of the execution `scheduler`, with the synchronization and the storage it
    /// takes from `leftovers` (made anew when they hold none).
    init(scheduler: Scheduler, reusing leftovers: inout Leftovers) {
        self.scheduler = Unmanaged.passUnretained(scheduler)
        synchronization = leftovers.synchronization.take() ?? ExecutorSynchronization()
        // Swapped in, not copied: the arrays must be unique for appending to reuse them.
        swap(&jobs, &leftovers.jobs)
        swap(&jobIdentities, &leftovers.jobIdentities)
        swap(&heldTasks, &leftovers.heldTasks)
        swap(&threads, &leftovers.threads)
        swap(&laneStorage, &leftovers.laneStorage)
        swap(&runTimes, &leftovers.runTimes)
        jobs.reserveCapacity(Self.expectedTasks)
        jobIdentities.reserveCapacity(Self.expectedTasks)
    }

    /// Calls `body` with the execution, borrowed for the call: it outlives every call, which
    /// comes from one of its controlled threads while it runs (``scheduler``).
    @inline(__always)
    private func scheduling<Result>(_ body: (Scheduler) -> Result) -> Result {
        scheduler._withUnsafeGuaranteedRef(body)
    }

    /// Empties the executor's storage into `leftovers`, keeping its capacity, with its
    /// synchronization, for the next execution's executor: call once every thread of the
    /// execution has ended, so that no thread still waits on the synchronization or touches
    /// the storage, which leaves this executor spent (foreign jobs still come to
    /// ``foreignJobs``).
    func leave(in leftovers: inout Leftovers) {
        synchronization.reset()
        leftovers.synchronization = synchronization
        jobs.leaveStorage(in: &leftovers.jobs)
        jobIdentities.leaveStorage(in: &leftovers.jobIdentities)
        heldTasks.leaveStorage(in: &leftovers.heldTasks)
        threads.leaveStorage(in: &leftovers.threads)
        // Each lane's storage is kept whole, its lists as the lane left them: a lane empties
        // each before it uses it.
        swap(&leftovers.laneStorage, &laneStorage)
        runTimes.removeAll()
        swap(&leftovers.runTimes, &runTimes)
    }

    /// The tasks an execution's executor is given room for at its start, in each array that
    /// holds tasks or their jobs: one allocation each, where growing by appending reallocated
    /// at every doubling.
    private static var expectedTasks: Int { 8 }

    /// Runs `change` on the executor's state, which no other thread touches meanwhile
    /// (see the type's summary): without the mutex, unless a thread in a non-preemptible
    /// region can run. Then taking the mutex is a scheduling point, where that thread runs
    /// first, as at any operation on the harness's own synchronization
    /// (``ExecutionModel/performQuietly(_:_:at:)``): the thread may hold a runtime lock that
    /// the caller would meet next, outside the seam.
    ///
    /// Taking the mutex otherwise changed no schedule (it was always free, and taken without
    /// a decision), and cost two seam operations, a fifth of the actor scenario's time.
    @inline(__always)
    private func withState<Result>(_ change: () -> Result) -> Result {
        guard scheduling({ $0.hasUrgentThread }) else { return change() }
        return mutex.withLock(change)
    }

    /// Waits on `condition`, under the mutex, until `predicate` holds; returns at once when
    /// it holds already (``withState(_:)``).
    private func wait(on condition: ExecutorCondition, until predicate: () -> Bool) {
        if !scheduling({ $0.hasUrgentThread }), predicate() { return }
        mutex.withLock { condition.wait(on: mutex, until: predicate) }
    }

    /// Starts `lanes` lane threads, which read the whole async stacks of the tasks they run
    /// when `readingAsyncStacks`; call from a controlled thread. The timer thread starts with
    /// the first timer.
    func start(lanes: Int, readingAsyncStacks: Bool) {
        readsAsyncStacks = readingAsyncStacks
        for _ in 0..<lanes {
            threads.append(spawn(interchangeable: true) { [self] in runLane(main: false) })
        }
    }

    private func spawn(interchangeable: Bool = false, _ body: @escaping @Sendable () -> Void) -> SeamThread {
        scheduling { $0.spawnExecutorThread(interchangeable: interchangeable, body) }
    }

    // MARK: Tasks

    /// Starts a task preferring this executor, named `name` when given one (as `Task(name:)`
    /// names it, and reports do), reported by `place`, where it was started, when not; it
    /// counts as outstanding until its body ends. The task's first job is queued with its
    /// name attached (``startTask(name:createdBy:_:)``). An unnamed task has no name at run
    /// time, as outside the harness.
    func startTask(named name: String?, at place: SeamLocation, _ body: @escaping @Sendable () async throws -> Void)
        -> Task<Void, Never>
    {
        startTask(
            name: name.map(TaskName.given) ?? .startedAt(place),
            createdBy: { Task(name: name, executorPreference: $0, operation: $1) }, body)
    }

    /// Starts a task as ``startTask(named:at:_:)`` does, but `create` makes it: given this executor
    /// and the task's operation, it creates a task preferring the one and running the other,
    /// and may do so in another task on a thread the execution does not control, so that the
    /// new task inherits that task's task-local values, while the calling thread waits for
    /// `create` to return. The task's first job, which arrives from there, is queued as the
    /// calling thread's, named `name`: the name goes with that job, so a job another thread
    /// queues meanwhile cannot take it. Returns what `create` returns. Call from a controlled
    /// thread.
    func startTask<Created>(
        name: TaskName,
        createdBy create: (_ executor: any TaskExecutor, _ operation: @escaping @Sendable () async -> Void) -> Created,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> Created {
        withState { outstandingTasks += 1 }
        noteState()
        admissionMayBeOpen.store(true, ordering: .sequentiallyConsistent)
        admission.withLock { $0 = .open }
        let created = create(self, outstanding(body))
        let first = admission.withLock { state in
            defer { state = .closed }
            guard case .arrived(let job) = state else { return UnownedJob?.none }
            return job
        }
        admissionMayBeOpen.store(false, ordering: .sequentiallyConsistent)
        guard let first else { preconditionFailure("the task '\(name.text)' was not created preferring the executor") }
        enqueue(first, onMainActor: false, startedAs: name)
        return created
    }

    /// The operation of a task counted in `outstandingTasks`: runs `body`, fails the execution
    /// with an error it throws, and ends the count.
    private func outstanding(_ body: @escaping @Sendable () async throws -> Void) -> @Sendable () async -> Void {
        { [self] in
            do {
                try await body()
            } catch {
                scheduling { $0.failAtNextDecision(.taskThrew(error: "\(error)")) }
            }
            taskEnded()
        }
    }

    /// A task counted in `outstandingTasks` ended. Never inlined: ``settle(_:)`` inlined in the
    /// task's async body made its frame outgrow the task allocator's first slab, one more
    /// allocation a task.
    @inline(never)
    private func taskEnded() {
        settle { outstandingTasks -= 1 }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let admitted =
            admissionMayBeOpen.load(ordering: .sequentiallyConsistent)
            && admission.withLock { state in
                guard case .open = state else { return false }
                state = .arrived(job)
                return true
            }
        if !admitted { enqueue(job, onMainActor: false) }
    }

    /// Queues `job` for a lane, or for the main lane when it is a `MainActor` job; the
    /// calling thread must be one of the execution's. `name` is the name of the task the
    /// scenario started whose first job `job` is, if it is one.
    func enqueue(_ job: UnownedJob, onMainActor: Bool, startedAs name: TaskName? = nil) {
        guard isCalledByExecution(job) else { return }
        let runtimeID = jobTaskID(job)
        runTimes.jobQueued(
            task: runtimeID, by: Seam.currentThread, current: currentTaskRuntimeID, at: cshim_monotonic_now_ns)
        let queued = withState {
            let named = identity(ofTask: runtimeID)
            hold(job, of: runtimeID, startedAs: name)
            if onMainActor {
                mainJobs.append((job, named))
            } else {
                jobs.append(job)
                jobIdentities.append(named)
            }
            jobsEnqueued += 1
            return named
        }
        noteState()
        if onMainActor {
            startMainLaneOnce()
            mainJobQueued.signal()
        }
        scheduling { $0.jobEnqueued(queued) }
    }

    /// Queues `job` once the virtual clock has moved on by `delay`.
    func enqueue(_ job: UnownedJob, after delay: Duration) {
        guard isCalledByExecution(job) else { return }
        queue(job, after: delay)
    }

    /// Queues `job`, a sleep's, once the virtual clock has moved on by the duration the
    /// sleep asked for, recovered from its deadline: `remaining` is the time to it by the
    /// real clock, read after `arrival`, the monotonic clock's reading as the job arrived
    /// (``SleepDeadline``); the sleeping task is the calling thread's.
    func enqueue(_ job: UnownedJob, deadlineIn remaining: Duration, arrivedAt arrival: UInt64) {
        guard isCalledByExecution(job) else { return }
        let deadline = runTimes.sleepDeadline(
            in: remaining, by: currentTaskRuntimeID(), on: Seam.currentThread, at: arrival)
        queue(job, after: deadline.delay)
    }

    private func queue(_ job: UnownedJob, after delay: Duration) {
        addTimer(at: Seam.now().advanced(by: max(delay, .zero))) { [self] in enqueue(job, onMainActor: false) }
    }

    /// Fails the execution: a job was delayed on a clock whose durations are not `Duration`,
    /// which the harness cannot put on its virtual clock. The job does not run.
    func rejectDelayedJob<C: Clock>(_ job: UnownedJob, on clock: C) {
        guard isCalledByExecution(job) else { return }
        scheduling { $0.failAtNextDecision(.nondeterminism(.foreignClock("\(C.self)"))) }
    }

    /// A job that arrives from a thread the execution does not control escaped it: it is
    /// reported (the execution fails at its next decision) and not run. One that arrives
    /// once the execution is gone is noted where nobody reads it any more, and not run.
    private func isCalledByExecution(_ job: UnownedJob) -> Bool {
        // The calling thread's controller is the execution when it is the same object (compared,
        // not cast: a cast retained it); only then is the execution, alive, asked.
        let isExecutions = Seam.withCurrentController { controller in
            Unmanaged.passUnretained(controller as AnyObject).toOpaque() == scheduler.toOpaque()
        }
        if isExecutions == true, scheduling({ $0.runs(on: self) }) { return true }
        var buffer = [CChar](repeating: 0, count: 64)
        let named = cshim_get_current_thread_name(&buffer, buffer.count) == 0 && buffer[0] != 0
        let name = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let thread = named ? String(decoding: name, as: UTF8.self) : nil
        foreignJobs.note(ForeignJob(thread: thread, isMainThread: Thread.isMainThread, taskRuntimeID: jobTaskID(job)))
        return false
    }

    /// Names a job of the task the runtime knows by `taskID` (0 for none) for the strategy:
    /// its task, numbered in the order this execution first saw it, and its place in the
    /// enqueue order. Called in ``withState(_:)``.
    private func identity(ofTask taskID: UInt64) -> JobIdentity {
        guard taskID != 0 else { return JobIdentity(task: nil, enqueueOrder: jobsEnqueued) }
        return JobIdentity(task: scheduling { $0.taskNumber(runtimeID: taskID) }, enqueueOrder: jobsEnqueued)
    }

    /// Names the task `job` runs, `runtimeID`, `name` when the scenario is starting it under
    /// that name, and holds it the first time one of its jobs comes; a task the scenario did
    /// not start is named by where it was created, whose stack is captured here. Called in
    /// ``withState(_:)``.
    private func hold(_ job: UnownedJob, of runtimeID: UInt64, startedAs name: TaskName?) {
        guard runtimeID != 0 else { return }
        // Named whether or not it can be held (``RuntimeTask/retaining(_:)``).
        if let name { scheduling { $0.nameTask(runtimeID: runtimeID, name) } }
        guard !heldTasks.contains(where: { $0.runtimeID == runtimeID }), let task = RuntimeTask.retaining(job) else {
            return
        }
        if heldTasks.capacity == 0 { heldTasks.reserveCapacity(Self.expectedTasks) }
        heldTasks.append((runtimeID, task))
        if name == nil { creationSites[runtimeID] = .capture() }
    }

    /// Moves the held tasks that have ended out of ``heldTasks`` into `ended`, for the caller
    /// to release afterwards (releasing a task may run deinitializers). Called in
    /// ``withState(_:)``.
    private func takeEndedTasks(into ended: inout [RuntimeTask]) {
        heldTasks.removeAll { held in
            guard held.task.isComplete else { return false }
            ended.append(held.task)
            return true
        }
    }

    /// The held tasks that have not ended, in the order they first came, with where each
    /// would go on and what it awaits; read only by the running thread while no other thread
    /// or task runs, so each of them is suspended.
    var unendedTasks: [(runtimeID: UInt64, resumePoints: [UInt], awaits: BlockedTask.Awaited?)] {
        let unended = unendedHeldTasks
        return unended.map { held in
            let awaits: BlockedTask.Awaited?
            switch held.task.wait {
            case .task(let address):
                let awaited = unended.first { $0.task.address == address }
                awaits =
                    awaited.map { task in .task(scheduling { $0.taskNumber(runtimeID: task.runtimeID) } + 1) }
                    ?? .foreignTask
            case .continuation: awaits = .continuation
            case .taskGroup: awaits = .taskGroup
            case .underway, .unknown: awaits = nil
            }
            return (held.runtimeID, held.task.resumePoints, awaits)
        }
    }

    /// The held tasks that have not ended.
    private var unendedHeldTasks: [(runtimeID: UInt64, task: RuntimeTask)] {
        heldTasks.filter { !$0.task.isComplete }
    }

    /// What may still wake the held tasks that have not ended; read only by the running
    /// thread while no other thread of the execution runs.
    var foreignWakeup: ForeignWakeup {
        let unended = unendedHeldTasks
        return ForeignWakeup(waits: unended.map(\.task.wait), held: Set(unended.map(\.task.address)))
    }

    /// Counts the tasks that have not ended as ended: the scenario judged them suspended for
    /// good (a generated scenario's blocked calls), once nothing could run. They stay
    /// suspended; the executor falls quiet and closes without them.
    func abandonSuspendedTasks() {
        settle { suspendedTasksAbandoned = true }
    }

    /// Waits until the executor is quiet: every task the scenario started has ended, and
    /// every other task (a `Task {}` one of them started) has ended or waits for good.
    func waitUntilQuiet() {
        if !scheduling({ $0.hasUrgentThread }), isQuiet { return }
        scheduling { $0.awaitTasks(at: SeamLocation(fileID: #fileID, line: #line)) }
    }

    /// Lets the lanes, the main lane and the timer thread exit once every task, job and
    /// timer is done, and joins them.
    func close() {
        withState { closed = true }
        wakeQuietWaiters()
        var joined = 0
        while joined < threads.count {
            let thread = threads[joined]
            joined += 1
            do {
                try thread.join()
            } catch {
                preconditionFailure("joining an executor thread failed: \(error)")
            }
            scheduling { $0.joinedHarnessThread(thread) }
        }
        for held in heldTasks { held.task.release() }
        heldTasks.empty()
    }

    /// Suspends the calling task, one the scenario started, until every other task is quiet:
    /// each task the scenario started has ended or waits here too, and no job is queued or
    /// running, no timer set (so every `Task {}` the harness runs has ended or waits for good).
    func waitUntilOthersQuiet() async {
        await withUnsafeContinuation { continuation in
            withState { othersQuietWaiters.append(continuation) }
        }
    }

    /// Applies `change` to the counts; then wakes the waiters of
    /// ``waitUntilQuiet()`` when the executor fell quiet, and resumes the tasks in
    /// ``waitUntilOthersQuiet()`` when every other task is quiet.
    /// Returns what `change` returns.
    @discardableResult
    @inline(__always)  // Called, it was handed the executor retained, at every job.
    private func settle<Result>(_ change: () -> Result) -> Result {
        let (result, quiet, waiters) = withState {
            let result = change()
            let othersQuiet = isQuiet(besides: othersQuietWaiters.count)
            defer { if othersQuiet { othersQuietWaiters = [] } }
            return (result, isQuiet, othersQuiet ? othersQuietWaiters : [])
        }
        if quiet { wakeQuietWaiters() }
        for waiter in waiters { waiter.resume() }
        return result
    }

    /// Whether nothing is left to run or to wake: no task the scenario started is running, no
    /// job is queued or running, no timer is set.
    private var isQuiet: Bool { isQuiet(besides: 0) }

    /// Whether nothing is left to run or to wake but `waiting` tasks the scenario started,
    /// which are waiting in ``waitUntilOthersQuiet()``.
    private func isQuiet(besides waiting: Int) -> Bool {
        (outstandingTasks == waiting || suspendedTasksAbandoned) && jobsRunning == 0 && jobs.isEmpty
            && mainJobs.isEmpty && timers.isEmpty
    }

    /// Whether the executor's threads may exit: closed, and quiet.
    private var isDone: Bool { closed && isQuiet }

    /// Tells the execution what the lanes and ``waitUntilQuiet()`` wait for: the jobs queued
    /// for the lanes, and whether the executor is quiet and closed. Called wherever one of
    /// them may have changed, before the next scheduling point: a job queued or taken, a task
    /// started, a timer set (each makes the executor busy), and the executor falling quiet or
    /// closing (``wakeQuietWaiters()``). A job or a task ending only makes it quieter, and
    /// ``settle(_:)`` wakes the quiet waiters when it falls quiet.
    private func noteState() {
        let (queued, quiet, closed) = (jobs.count, isQuiet, self.closed)
        scheduling { $0.noteExecutor(queuedJobs: queued, isQuiet: quiet, isClosed: closed) }
    }

    /// Wakes whoever waits for the executor to fall quiet, and every executor thread, to see
    /// whether it may exit.
    private func wakeQuietWaiters() {
        noteState()
        mainJobQueued.broadcast()
        timersChanged.broadcast()
    }

    /// Whether a task the scenario started, or a held one, has not ended; read only by the
    /// running thread.
    var hasUnendedTasks: Bool {
        !suspendedTasksAbandoned && (outstandingTasks > 0 || heldTasks.contains { !$0.task.isComplete })
    }

    /// Runs jobs until the executor is done: queued jobs in the order the strategy picks, or,
    /// on the main lane, `MainActor` jobs in the order they came. What a job needs noted
    /// (the tasks it may run, those that ran and those that ended) goes to buffers of the
    /// lane's own, kept from job to job: a job allocates nothing for them.
    ///
    /// A lane goes on from its start, and from each job to the next, only once a job is queued
    /// for it or it may exit: the execution holds it there (``noteState()``). The main lane
    /// waits for its jobs on a condition.
    private func runLane(main: Bool) {
        let executor = main ? UnownedSerialExecutor?.some(MainActor.sharedUnownedExecutor) : nil
        // The executor's state, touched without the mutex: no code that runs under a runtime
        // lock needs it (see ``withState(_:)``). Given back as the lane returns; a lane that
        // exits as its execution fails does not return, and the next lanes make new storage.
        var storage = laneStorage.popLast() ?? LaneStorage()
        let lane = Seam.currentThread
        defer { laneStorage.append(storage) }
        storage.unended.reserveCapacity(Self.expectedTasks)
        storage.ran.reserveCapacity(Self.expectedTasks)
        while true {
            if main { wait(on: mainJobQueued, until: { !mainJobs.isEmpty || isDone }) }
            let taken = withState { () -> UnownedJob? in
                guard !(main ? mainJobs.isEmpty : jobs.isEmpty) else { return nil }
                let job: UnownedJob
                if main {
                    let next = mainJobs.removeFirst()
                    _ = withUnsafePointer(to: next.identity) { identity in
                        scheduling { $0.chooseJob(among: UnsafeBufferPointer(start: identity, count: 1)) }
                    }
                    job = next.job
                } else {
                    // The list is lent in place, not passed: passing it, or lending it for
                    // reading, retained and released it. The choice reads it only.
                    let index = jobIdentities.withUnsafeMutableBufferPointer { queued in
                        scheduling { $0.chooseJob(among: UnsafeBufferPointer(queued)) }
                    }
                    jobIdentities.remove(at: index)
                    job = jobs.remove(at: index)
                }
                jobsRunning += 1
                noteState()
                // A job runs its task, or (an actor draining its queue) the tasks queued there.
                storage.unended.empty()
                storage.stacks.empty()
                // Read in place, as the queued jobs are lent.
                heldTasks.withUnsafeMutableBufferPointer { held in
                    for (runtimeID, task) in held where !task.isComplete {
                        storage.unended.append((runtimeID, task, task.resumeState))
                        if readsAsyncStacks { storage.stacks.append(task.resumePoints) }
                    }
                }
                return job
            }
            guard let job = taken else { return }
            if let lane { runTimes.jobStarted(task: jobTaskID(job), on: lane, at: cshim_monotonic_now_ns()) }
            if let executor {
                job.runSynchronously(on: executor)
            } else {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
            if let lane { runTimes.jobEnded(on: lane) }
            // Read before `settle` may release the tasks.
            storage.ran.empty()
            for (index, (runtimeID, task, state)) in storage.unended.enumerated() {
                let isComplete = task.isComplete
                let now = isComplete ? state : task.resumeState
                guard isComplete || now != state else { continue }
                // Only the innermost frame unless asked: the walk reads memory a system call
                // at a time, and a task that just suspended may not have linked its callers'
                // contexts yet (the walk stops at the first it cannot read).
                var stacks: Int?
                if readsAsyncStacks {
                    stacks = stacksRead.count
                    stacksRead.append(
                        TaskJobPoints.Stacks(
                            resumed: storage.stacks[index],
                            suspended: isComplete ? [] : task.resumePoints,
                            awaitsExecutor: !isComplete && task.wait == .underway
                        ))
                }
                storage.ran.append(
                    (
                        runtimeID,
                        TaskJobPoints(
                            resumed: state.function, suspended: isComplete ? nil : now.function, stacks: stacks)
                    ))
            }
            settle {
                jobsRunning -= 1
                takeEndedTasks(into: &storage.ended)
            }
            for task in storage.ended { task.release() }
            storage.ended.empty()
            storage.ran.withUnsafeBufferPointer { ran in scheduling { $0.laneWillTakeJob(after: ran) } }
        }
    }

    private func startMainLaneOnce() {
        guard !mainLaneStarted else { return }
        mainLaneStarted = true
        threads.append(spawn { [self] in runLane(main: true) })
    }

    // MARK: Timers

    /// Calls `wake` once the clock reaches `deadline`; call from a controlled thread.
    func addTimer(at deadline: SeamInstant, _ wake: @escaping @Sendable () -> Void) {
        if !timerThreadStarted {
            timerThreadStarted = true
            threads.append(spawn { [self] in runTimers() })
        }
        withState {
            timers.append(Timer(deadline: deadline, order: timersAdded, wake: wake))
            timersAdded += 1
            timers.sort { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
        }
        noteState()
        timersChanged.broadcast()
    }

    private func runTimers() {
        while true {
            wait(on: timersChanged, until: { !timers.isEmpty || isDone })
            guard let first = withState({ timers.first }) else { return }
            if Seam.now() < first.deadline {
                mutex.withLock { _ = timersChanged.wait(on: mutex, deadline: first.deadline) }
                continue
            }
            withState { _ = timers.removeFirst() }
            first.wake()
            // The timer may have been the last thing the executor waited for.
            if withState({ isQuiet }) { wakeQuietWaiters() }
        }
    }
}

/// Sleeps of tasks that prefer the executor (`Task.sleep` on `ContinuousClock`,
/// `SuspendingClock` or in nanoseconds, on an actor or not) come here as delayed jobs: they
/// wait on the virtual clock.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
extension AsyncServices: SchedulingExecutor {
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        let job = UnownedJob(job)
        guard let delay = delay as? Duration else { return rejectDelayedJob(job, on: clock) }
        enqueue(job, after: delay)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        let job = UnownedJob(job)
        if let instant = instant as? SeamInstant {
            return enqueue(job, after: Seam.now().duration(to: instant))
        }
        // Before the clock's reading: the time the task spent until it arrived is then no
        // more than the time the deadline lost meanwhile (``SleepDeadline``).
        let arrival = cshim_monotonic_now_ns()
        guard let remaining = clock.now.duration(to: instant) as? Duration else {
            return rejectDelayedJob(job, on: clock)
        }
        enqueue(job, deadlineIn: remaining, arrivedAt: arrival)
    }
}

/// The ID of the task a job runs, 0 for a job that runs no task (a default actor draining
/// its queue). The runtime exports it (`UnownedJob`'s description prints it) but the
/// standard library declares it internal, hence the binding by symbol name.
@_silgen_name("swift_task_getJobTaskId")
func jobTaskID(_ job: UnownedJob) -> UInt64

/// The runtime's ID of the task running on the calling thread, if any. A task is a job to
/// the runtime, and `UnownedJob` holds just its reference.
func currentTaskRuntimeID() -> UInt64? {
    cshim_current_task().map { jobTaskID(unsafeBitCast($0, to: UnownedJob.self)) }
}
