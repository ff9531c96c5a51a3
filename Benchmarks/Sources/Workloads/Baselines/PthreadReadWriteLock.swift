#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("PthreadReadWriteLock: unsupported platform")
#endif

/// A `pthread_rwlock_t` with no seam and return codes checked: the reader-writer lock the
/// coordinator's reads are compared with.
final class PthreadReadWriteLock: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        storage = .allocate(capacity: 1)
        pthreadCheck(pthread_rwlock_init(storage, nil), "pthread_rwlock_init")
    }

    deinit {
        pthreadCheck(pthread_rwlock_destroy(storage), "pthread_rwlock_destroy")
        storage.deallocate()
    }

    @inline(__always)
    func withReadLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthreadCheck(pthread_rwlock_rdlock(storage), "pthread_rwlock_rdlock")
        defer { pthreadCheck(pthread_rwlock_unlock(storage), "pthread_rwlock_unlock") }
        return try body()
    }
}
