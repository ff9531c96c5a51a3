import CShim
import Foundation
import Primitives
import Synchronization

/// The Swift-concurrency side of one execution: a task executor whose jobs run on
/// controlled lane threads, one job at a time per lane, in an order the strategy picks; and
/// a timer thread that wakes ``SeamClock`` sleepers on the virtual clock.
///
/// Every piece of its state is guarded by a seam mutex, and lanes, the timer thread and
/// ``waitForTasks()`` each wait on a condition of their own, so threads and tasks share one
/// scheduler. The execution treats these as its own synchronization
/// (``synchronizationObjects``): operations on them take no decision unless they block, so
/// schedules interleave at the scenario's operations, not at the executor's bookkeeping.
/// The executor's own scheduling points are where its effects can be seen: after a job is
/// queued (a lane may take it before the enqueuer goes on), before a lane takes its next
/// job, and the choice among queued jobs.
final class AsyncServices: TaskExecutor, @unchecked Sendable {
    private struct Timer {
        let deadline: SeamInstant
        let order: Int
        let wake: @Sendable () -> Void
    }

    private unowned let execution: Execution
    private let mutex = SeamMutex()
    /// Signalled once per queued job, and broadcast when the lanes may exit.
    private let jobQueued = SeamCondition()
    /// Broadcast when a timer is added and when the timer thread may exit.
    private let timersChanged = SeamCondition()
    /// Broadcast when the last outstanding task ends.
    private let tasksEnded = SeamCondition()
    private var jobs: [(job: UnownedJob, identity: JobIdentity)] = []
    private var jobsEnqueued = 0
    private var timers: [Timer] = []
    private var timersAdded = 0
    private var outstandingTasks = 0
    private var closed = false
    private var threads: [SeamThread] = []
    private var timerThreadStarted = false

    init(execution: Execution) {
        self.execution = execution
    }

    /// The mutex and conditions that are the executor's own synchronization.
    var synchronizationObjects: [ObjectIdentifier] {
        [mutex, jobQueued, timersChanged, tasksEnded].map(ObjectIdentifier.init)
    }

    /// Starts `lanes` lane threads; call from a controlled thread. The timer thread starts
    /// with the first timer.
    func start(lanes: Int) {
        for _ in 0..<lanes {
            threads.append(spawn { [self] in runLane() })
        }
    }

    private func spawn(_ body: @escaping @Sendable () -> Void) -> SeamThread {
        execution.spawnExecutorThread(body)
    }

    // MARK: Tasks

    /// Starts a task named `name` preferring this executor; it counts as outstanding until
    /// its body ends.
    func startTask(name: String, _ body: @escaping @Sendable () async throws -> Void) -> Task<Void, Never> {
        mutex.withLock { outstandingTasks += 1 }
        return Task(name: name, executorPreference: self) { [self] in
            execution.nameCurrentTask(name)
            do {
                try await body()
            } catch {
                execution.taskThrew(error)
            }
            let ended = mutex.withLock {
                outstandingTasks -= 1
                return outstandingTasks == 0
            }
            if ended {
                tasksEnded.broadcast()
                jobQueued.broadcast()
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard let controller = Seam.currentController as? Execution, controller === execution else {
            execution.noteForeignJob(from: Self.describeCurrentThread())
            return
        }
        let queued = mutex.withLock {
            let named = identity(of: job)
            jobs.append((job, named))
            jobsEnqueued += 1
            return named
        }
        jobQueued.signal()
        execution.jobEnqueued(queued)
    }

    /// Names a job for the strategy: its task, numbered in the order this execution first
    /// saw it, and its place in the enqueue order. Called under the mutex.
    private func identity(of job: UnownedJob) -> JobIdentity {
        let taskID = jobTaskID(job)
        guard taskID != 0 else { return JobIdentity(task: nil, enqueueOrder: jobsEnqueued) }
        return JobIdentity(task: execution.taskNumber(runtimeID: taskID), enqueueOrder: jobsEnqueued)
    }

    /// Names the calling (uncontrolled) thread for a report: its name, and whether it is the
    /// main thread.
    private static func describeCurrentThread() -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let named = cshim_get_current_thread_name(&buffer, buffer.count) == 0 && buffer[0] != 0
        let name = named ? "'\(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))'" : "an unnamed thread"
        return Thread.isMainThread ? "the main thread (\(name)): a MainActor or main-queue escape" : "thread \(name)"
    }

    /// Waits until every task started so far has ended.
    func waitForTasks() {
        mutex.withLock { tasksEnded.wait(on: mutex, until: { outstandingTasks == 0 }) }
    }

    /// Waits for the tasks to end, then lets the lanes and the timer thread exit and joins them.
    func close() {
        mutex.withLock { closed = true }
        jobQueued.broadcast()
        timersChanged.broadcast()
        for thread in threads {
            do {
                try thread.join()
            } catch {
                preconditionFailure("joining an executor thread failed: \(error)")
            }
            execution.joinedHarnessThread(thread)
        }
    }

    private var isDone: Bool { closed && outstandingTasks == 0 }

    /// Whether a task has started and not ended; read only by the running thread.
    var hasOutstandingTasks: Bool { outstandingTasks > 0 }

    private func runLane() {
        while true {
            mutex.lock()
            jobQueued.wait(on: mutex, until: { !jobs.isEmpty || isDone })
            guard !jobs.isEmpty else {
                mutex.unlock()
                return
            }
            let job = jobs.remove(at: execution.chooseJob(among: jobs.map(\.identity))).job
            mutex.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            execution.laneWillTakeJob()
        }
    }

    // MARK: Timers

    /// Calls `wake` once the clock reaches `deadline`; call from a controlled thread.
    func addTimer(at deadline: SeamInstant, _ wake: @escaping @Sendable () -> Void) {
        if !timerThreadStarted {
            timerThreadStarted = true
            threads.append(spawn { [self] in runTimers() })
        }
        mutex.withLock {
            timers.append(Timer(deadline: deadline, order: timersAdded, wake: wake))
            timersAdded += 1
            timers.sort { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
        }
        timersChanged.broadcast()
    }

    private func runTimers() {
        mutex.lock()
        while true {
            timersChanged.wait(on: mutex, until: { !timers.isEmpty || isDone })
            guard let first = timers.first else { break }
            if Seam.now() < first.deadline {
                _ = timersChanged.wait(on: mutex, deadline: first.deadline)
                continue
            }
            timers.removeFirst()
            mutex.unlock()
            first.wake()
            mutex.lock()
        }
        mutex.unlock()
    }
}

/// The ID of the task a job runs, 0 for a job that runs no task (a default actor draining
/// its queue). The runtime exports it (`UnownedJob`'s description prints it) but the
/// standard library declares it internal, hence the binding by symbol name.
@_silgen_name("swift_task_getJobTaskId")
func jobTaskID(_ job: UnownedJob) -> UInt64

/// The runtime's ID of the task running on the calling thread, if any. A task is a job to
/// the runtime, and `UnsafeCurrentTask` and `UnownedJob` both hold just its reference.
func currentTaskRuntimeID() -> UInt64? {
    withUnsafeCurrentTask { task in
        task.map { jobTaskID(unsafeBitCast($0, to: UnownedJob.self)) }
    }
}
