import CShim
import Foundation
import Primitives
import Synchronization

/// The Swift-concurrency side of one execution: a task executor whose jobs run on
/// controlled lane threads, one job at a time per lane, in an order the strategy picks; and
/// a timer thread that wakes ``SeamClock`` sleepers on the virtual clock.
///
/// Every piece of its state is guarded by a seam mutex, so enqueueing, picking and waking
/// are scheduling points like any other, and threads and tasks share one scheduler.
final class AsyncServices: TaskExecutor, @unchecked Sendable {
    private struct Timer {
        let deadline: SeamInstant
        let order: Int
        let wake: @Sendable () -> Void
    }

    private unowned let execution: Execution
    private let mutex = SeamMutex()
    private let changed = SeamCondition()
    private var jobs: [UnownedJob] = []
    private var timers: [Timer] = []
    private var timersAdded = 0
    private var outstandingTasks = 0
    private var closed = false
    private var threads: [SeamThread] = []

    init(execution: Execution) {
        self.execution = execution
    }

    /// Starts `lanes` lane threads and the timer thread; call from a controlled thread.
    func start(lanes: Int) {
        for _ in 0..<lanes {
            threads.append(spawn { [self] in runLane() })
        }
        threads.append(spawn { [self] in runTimers() })
    }

    private func spawn(_ body: @escaping @Sendable () -> Void) -> SeamThread {
        switch Seam.spawnThread(body) {
        case .success(let thread):
            execution.spawnedHarnessThread(thread)
            return thread
        case .failure(let error): preconditionFailure("the harness could not start an executor thread: \(error)")
        }
    }

    // MARK: Tasks

    /// Starts a task preferring this executor; it counts as outstanding until its body ends.
    func startTask(_ body: @escaping @Sendable () async throws -> Void) -> Task<Void, Never> {
        mutex.withLock { outstandingTasks += 1 }
        return Task(executorPreference: self) { [self] in
            do {
                try await body()
            } catch {
                execution.taskThrew(error)
            }
            mutex.withLock { outstandingTasks -= 1 }
            changed.broadcast()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard let controller = Seam.currentController as? Execution, controller === execution else {
            execution.noteForeignJob(from: Self.describeCurrentThread())
            return
        }
        mutex.withLock { jobs.append(job) }
        changed.broadcast()
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
        mutex.withLock { changed.wait(on: mutex, until: { outstandingTasks == 0 }) }
    }

    /// Waits for the tasks to end, then lets the lanes and the timer thread exit and joins them.
    func close() {
        mutex.withLock { closed = true }
        changed.broadcast()
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
            changed.wait(on: mutex, until: { !jobs.isEmpty || isDone })
            guard !jobs.isEmpty else {
                mutex.unlock()
                return
            }
            let job = jobs.remove(at: execution.chooseJob(among: jobs.count))
            mutex.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    // MARK: Timers

    /// Calls `wake` once the clock reaches `deadline`.
    func addTimer(at deadline: SeamInstant, _ wake: @escaping @Sendable () -> Void) {
        mutex.withLock {
            timers.append(Timer(deadline: deadline, order: timersAdded, wake: wake))
            timersAdded += 1
            timers.sort { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
        }
        changed.broadcast()
    }

    private func runTimers() {
        mutex.lock()
        while true {
            changed.wait(on: mutex, until: { !timers.isEmpty || isDone })
            guard let first = timers.first else { break }
            if Seam.now() < first.deadline {
                _ = changed.wait(on: mutex, deadline: first.deadline)
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
