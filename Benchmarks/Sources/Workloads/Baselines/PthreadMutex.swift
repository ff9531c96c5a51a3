#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("PthreadMutex: unsupported platform")
#endif

/// A `pthread_mutex_t` with no seam and return codes checked: the lock a primitive built on
/// the seam is compared with.
final class PthreadMutex: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<pthread_mutex_t>

    init(recursive: Bool = false) {
        storage = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthreadCheck(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        defer { pthread_mutexattr_destroy(&attributes) }
        let type = recursive ? Int32(PTHREAD_MUTEX_RECURSIVE) : Int32(PTHREAD_MUTEX_NORMAL)
        pthreadCheck(pthread_mutexattr_settype(&attributes, type), "pthread_mutexattr_settype")
        pthreadCheck(pthread_mutex_init(storage, &attributes), "pthread_mutex_init")
    }

    deinit {
        pthreadCheck(pthread_mutex_destroy(storage), "pthread_mutex_destroy")
        storage.deallocate()
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthreadCheck(pthread_mutex_lock(storage), "pthread_mutex_lock")
        defer { pthreadCheck(pthread_mutex_unlock(storage), "pthread_mutex_unlock") }
        return try body()
    }
}

/// Traps with a message naming `operation` when a pthread call returned an error.
@inline(__always)
func pthreadCheck(_ error: Int32, _ operation: StaticString) {
    precondition(error == 0, "\(operation) failed with error \(error)")
}
