import Primitives

/// Makes tasks in the task that serves it, on request from a thread that waits meanwhile: a
/// task made there inherits the serving task's task-local values.
final class TaskMaker: @unchecked Sendable {
    private let lock = SeamMutex()
    private let changed = SeamCondition()
    private var request: (@Sendable () -> Void)?
    private var requested = 0
    private var served = 0
    private var closed = false

    /// Runs requests until ``close()``; call from the task whose task-local values the tasks
    /// made inherit.
    func serve() {
        while let work = nextRequest() {
            work()
            lock.withLockDirectly { served += 1 }
            changed.broadcastDirectly()
        }
    }

    private func nextRequest() -> (@Sendable () -> Void)? {
        lock.withLockDirectly {
            changed.waitDirectly(on: lock, until: { request != nil || closed })
            defer { request = nil }
            return request
        }
    }

    /// Makes a task preferring `executor` and running `operation` in the serving task, and
    /// returns once it is made.
    func make(_ executor: any TaskExecutor, _ operation: @escaping @Sendable () async -> Void) {
        lock.withLockDirectly {
            precondition(!closed, "a task was requested after the exploration ended")
            requested += 1
            let ticket = requested
            request = { _ = Task(executorPreference: executor, operation: operation) }
            changed.broadcastDirectly()
            changed.waitDirectly(on: lock, until: { served >= ticket })
        }
    }

    /// Lets ``serve()`` return.
    func close() {
        lock.withLockDirectly { closed = true }
        changed.broadcastDirectly()
    }
}
