import CShim
import Primitives

/// A read/write coordinator whose reads overtake enqueued writes of other threads: a write
/// enqueued while the coordinator is busy waits until it is idle, and a read waits only for
/// writes that run and for the writes its own thread enqueued ("read your writes"). So a
/// read that starts after another thread's `enqueueWrite` returned may miss that write.
/// Each thread reads its own writes, and synchronous writes exclude everything, so the
/// hand-written scenarios (``ReadWriteScenarios/exclusion(_:)``,
/// ``ReadWriteScenarios/enqueuedWritesInOrder(_:)``) never see it. No re-entry.
public final class OvertakingReadWriteCoordinator: EnqueuingReadWriteCoordinating, @unchecked Sendable {
    private let mutex = SeamMutex()
    private let changed = SeamCondition()
    private var readers = 0
    private var writing = false
    private var queued: [(owner: pthread_t, body: @Sendable () -> Void)] = []

    /// An idle coordinator.
    public init() {}

    /// The defect: waits for a running write and for this thread's queued writes only.
    public func read<Result>(_ body: () -> Result) -> Result {
        let me = pthread_self()
        mutex.withLock {
            changed.wait(on: mutex, until: { !writing && !queued.contains { pthread_equal($0.owner, me) != 0 } })
            readers += 1
        }
        defer { leave(reading: true) }
        return body()
    }

    /// Runs `body` alone, once nothing runs and nothing is queued.
    public func write<Result>(_ body: () -> Result) -> Result {
        mutex.withLock {
            changed.wait(on: mutex, until: { !writing && readers == 0 && queued.isEmpty })
            writing = true
        }
        defer { leave(reading: false) }
        return body()
    }

    /// Runs `body` now if the coordinator is idle, else queues it for the last to leave.
    public func enqueueWrite(_ body: @escaping @Sendable () -> Void) {
        let runsNow = mutex.withLock {
            if !writing, readers == 0, queued.isEmpty {
                writing = true
                return true
            }
            queued.append((pthread_self(), body))
            return false
        }
        if runsNow {
            body()
            leave(reading: false)
        }
    }

    /// Leaves; the last to leave runs the queued writes, in order.
    private func leave(reading: Bool) {
        var next: (@Sendable () -> Void)? = mutex.withLock {
            if reading { readers -= 1 } else { writing = false }
            guard readers == 0, !writing, !queued.isEmpty else { return nil }
            writing = true
            return queued.removeFirst().body
        }
        while let body = next {
            body()
            next = mutex.withLock {
                guard !queued.isEmpty else {
                    writing = false
                    return nil
                }
                return queued.removeFirst().body
            }
        }
        changed.broadcast()
    }
}
