import Foundation
import Primitives

/// Where the tasks of a stress run's scenarios run.
public enum StressTaskExecutor: Sendable, Hashable {
    /// On a task executor of the run's own: `threads` real threads that run jobs side by
    /// side, in the order they come, as the global executor's threads do. A test process
    /// whose other tests block the global executor's few threads (synchronous tests that
    /// wait, child processes waited for) cannot starve the run's tasks into a false hang.
    /// Child tasks, `async let`s, default actors and resumed continuations stay on it.
    case dedicated(threads: Int)
    /// On the global concurrent executor, shared with everything else in the process.
    case global

    /// The threads a dedicated executor may have.
    public static let threadsRange: ClosedRange<Int> = 1...64
}

/// The task executor of ``StressTaskExecutor/dedicated(threads:)``: a queue of jobs and
/// worker threads that take them first in, first out.
final class StressTaskPool: TaskExecutor, @unchecked Sendable {
    private let lock = SeamMutex()
    private let jobsChanged = SeamCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var closed = false

    /// Starts `threads` worker threads.
    init(threads: Int) {
        for _ in 0..<threads {
            let worker = Thread { [self] in work() }
            worker.name = "stress executor"
            worker.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLockDirectly { jobs.append(job) }
        jobsChanged.broadcastDirectly()
    }

    /// Lets the workers end once no job is left. A job enqueued later, by a task of a hung
    /// iteration, never runs.
    func close() {
        lock.withLockDirectly { closed = true }
        jobsChanged.broadcastDirectly()
    }

    private func work() {
        while let job = next() {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    private func next() -> UnownedJob? {
        lock.withLockDirectly {
            jobsChanged.waitDirectly(on: lock, until: { head < jobs.count || closed })
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            return job
        }
    }
}
