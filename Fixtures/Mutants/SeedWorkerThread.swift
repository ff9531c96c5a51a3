import CShim
import Primitives

/// Seed defect 11: the seed's worker waits on its conditions without a predicate, so a
/// spurious wake-up returns early: here `stop()` can return before the worker drained its
/// work and exited.
public final class SeedWorkerThread: @unchecked Sendable {
    private let mutex = SeamMutex()
    private let changed = SeamCondition()
    private var work: [@Sendable () -> Void] = []
    private var stopping = false
    private var exited = false

    /// A worker that is not started.
    public init() {}

    /// Starts the (detached) worker thread.
    public func start() {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        _ = Seam.spawnThread(attributes: &attributes) { [self] in run() }
        pthread_attr_destroy(&attributes)
    }

    /// Queues `item` for the worker.
    public func submit(_ item: @escaping @Sendable () -> Void) {
        mutex.withLock { work.append(item) }
        changed.broadcast()
    }

    /// The defect: one wait, no loop re-checking that the worker exited.
    public func stop() {
        mutex.withLock {
            stopping = true
            changed.broadcast()
            if !exited { changed.wait(on: mutex) }
        }
    }

    private func run() {
        mutex.lock()
        while true {
            if let item = work.first {
                work.removeFirst()
                mutex.unlock()
                item()
                mutex.lock()
            } else if stopping {
                break
            } else {
                changed.wait(on: mutex)
            }
        }
        exited = true
        changed.broadcast()
        mutex.unlock()
    }
}
