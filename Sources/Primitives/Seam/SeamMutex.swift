import CShim

/// A mutual-exclusion lock on a `pthread_mutex_t`, and a seam operation.
///
/// Plain mutexes may not be re-acquired by their holder; recursive ones count
/// acquisitions. Every pthread call's return code is checked: misuse (unlocking a mutex
/// the caller does not hold, re-locking a plain mutex) traps with a message naming it in
/// debug builds, which use error-checking mutexes.
public final class SeamMutex: @unchecked Sendable {
    /// Whether the holder may acquire the mutex again.
    public enum Kind: Sendable, Hashable {
        /// A second acquisition by the holder is a programmer error.
        case plain
        /// The holder may acquire it again; it is released after as many unlocks.
        case recursive
    }

    /// The kind this mutex was created with.
    public let kind: Kind

    @usableFromInline
    let storage: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked mutex.
    public init(kind: Kind = .plain) {
        self.kind = kind
        storage = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        defer { pthread_mutexattr_destroy(&attributes) }
        let type: Int32
        switch kind {
        case .recursive:
            type = Int32(PTHREAD_MUTEX_RECURSIVE)
        case .plain:
            #if DEBUG
            type = Int32(PTHREAD_MUTEX_ERRORCHECK)
            #else
            type = Int32(PTHREAD_MUTEX_NORMAL)
            #endif
        }
        check(pthread_mutexattr_settype(&attributes, type), "pthread_mutexattr_settype")
        check(pthread_mutex_init(storage, &attributes), "pthread_mutex_init")
    }

    deinit {
        check(pthread_mutex_destroy(storage), "pthread_mutex_destroy")
        storage.deallocate()
    }

    /// Acquires the mutex, blocking while another thread holds it.
    @inlinable
    public func lock(file: StaticString = #fileID, line: UInt = #line) {
        Seam.route({ $0.lock(self, at: SeamLocation(fileID: file, line: line)) }, otherwise: { lockDirectly() })
    }

    /// Acquires the mutex if no waiting is needed; returns whether it did.
    @inlinable
    public func tryLock(file: StaticString = #fileID, line: UInt = #line) -> Bool {
        Seam.route({ $0.tryLock(self, at: SeamLocation(fileID: file, line: line)) }, otherwise: { tryLockDirectly() })
    }

    /// Releases one acquisition; the caller must hold the mutex.
    @inlinable
    public func unlock(file: StaticString = #fileID, line: UInt = #line) {
        Seam.route({ $0.unlock(self, at: SeamLocation(fileID: file, line: line)) }, otherwise: { unlockDirectly() })
    }

    /// Runs `body` holding the mutex and returns its result; the mutex is released however
    /// `body` exits (but not if the thread is cancelled inside it: see ``IOThread``).
    @inlinable
    public func withLock<Result, Failure: Error>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock(file: file, line: line)
        defer { unlock(file: file, line: line) }
        return try body()
    }

    /// Runs `body` holding the real mutex, never through a controller: for process-wide
    /// state that threads outside any scenario share too (a controller only models the
    /// mutexes of its scenario), and for code that may run inside a Swift global
    /// initializer, where a scheduling point would park the thread holding the runtime's
    /// `swift_once` lock, and for a controller's own state. `body` must not perform seam
    /// operations.
    ///
    /// Taking the mutex this way is never a scheduling point (nor opens a stress
    /// iteration's start gate). It is the lock for the harness's own bookkeeping on threads
    /// it does not control, rather than `Synchronization.Mutex`, on which ThreadSanitizer
    /// reports false races under contention (it does not see the contended hand-over,
    /// which happens in an uninstrumented library). Wait on it with
    /// ``SeamCondition/waitDirectly(on:until:)``.
    @inlinable
    package func withLockDirectly<Result>(_ body: () throws -> Result) rethrows -> Result {
        lockDirectly()
        defer { unlockDirectly() }
        return try body()
    }

    @inlinable
    func lockDirectly() {
        check(pthread_mutex_lock(storage), "pthread_mutex_lock")
    }

    @inlinable
    func tryLockDirectly() -> Bool {
        let error = pthread_mutex_trylock(storage)
        if error == EBUSY { return false }
        check(error, "pthread_mutex_trylock")
        return true
    }

    @inlinable
    func unlockDirectly() {
        check(pthread_mutex_unlock(storage), "pthread_mutex_unlock")
    }
}

/// Traps with a message naming `operation` when a pthread call returned an error.
@inlinable
func check(_ error: Int32, _ operation: StaticString, file: StaticString = #fileID, line: UInt = #line) {
    if error != 0 { fatalError("\(operation) failed with error \(error)", file: file, line: line) }
}
