import Primitives

/// Seed defect 15: the seed runs reads as `sync` and writes as barriers on one concurrent
/// queue, so a read from inside a write, or a nested read while a write is queued, waits
/// for itself. Modelled as a writer-preferring lock that knows nothing of re-entry.
public final class SeedReadWriteCoordinator: @unchecked Sendable {
    private let mutex = SeamMutex()
    private let changed = SeamCondition()
    private var readers = 0
    private var writing = false
    private var writersWaiting = 0

    /// An idle coordinator.
    public init() {}

    /// Runs `body` once no write runs or waits (the defect: even when the caller is
    /// already inside a read or a write).
    public func read<Result>(_ body: () -> Result) -> Result {
        mutex.withLock {
            changed.wait(on: mutex, until: { !writing && writersWaiting == 0 })
            readers += 1
        }
        defer {
            mutex.withLock { readers -= 1 }
            changed.broadcast()
        }
        return body()
    }

    /// Runs `body` alone, once every read and write before it has finished.
    public func write<Result>(_ body: () -> Result) -> Result {
        mutex.withLock {
            writersWaiting += 1
            changed.wait(on: mutex, until: { !writing && readers == 0 })
            writersWaiting -= 1
            writing = true
        }
        defer {
            mutex.withLock { writing = false }
            changed.broadcast()
        }
        return body()
    }
}
