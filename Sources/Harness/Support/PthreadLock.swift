#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("PthreadLock needs pthread mutexes and conditions")
#endif

/// A pthread mutex with a condition, for the harness's own bookkeeping on threads it does
/// not control: a stress run's, a history recorder's.
///
/// Not a seam operation, so taking it is never a scheduling point (and never opens a stress
/// iteration's start gate); and a pthread mutex rather than `Synchronization.Mutex`, on which
/// ThreadSanitizer reports false races under contention (it does not see the contended
/// hand-over, which happens in an uninstrumented library).
final class PthreadLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        var error = pthread_mutex_init(mutex, nil)
        precondition(error == 0, "\(#function) failed in pthread_mutex_init with error \(error)")
        error = pthread_cond_init(condition, nil)
        precondition(error == 0, "\(#function) failed in pthread_cond_init with error \(error)")
    }

    deinit {
        var error = pthread_cond_destroy(condition)
        precondition(error == 0, "\(#function) failed in pthread_cond_destroy with error \(error)")
        error = pthread_mutex_destroy(mutex)
        precondition(error == 0, "\(#function) failed in pthread_mutex_destroy with error \(error)")
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        var error = pthread_mutex_lock(mutex)
        precondition(error == 0, "\(#function) failed in pthread_mutex_lock with error \(error)")
        defer {
            error = pthread_mutex_unlock(mutex)
            precondition(error == 0, "\(#function) failed in pthread_mutex_unlock with error \(error)")
        }
        return try body()
    }

    /// Waits, holding the mutex, until `predicate` holds; call inside ``withLock(_:)``.
    func wait(until predicate: () -> Bool) {
        while !predicate() {
            let error = pthread_cond_wait(condition, mutex)
            precondition(error == 0, "\(#function) failed in pthread_cond_wait with error \(error)")
        }
    }

    /// Wakes every waiter of ``wait(until:)``.
    func broadcast() {
        let error = pthread_cond_broadcast(condition)
        precondition(error == 0, "\(#function) failed in pthread_cond_broadcast with error \(error)")
    }
}
