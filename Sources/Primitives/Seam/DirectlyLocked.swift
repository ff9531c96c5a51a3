/// A value behind a ``SeamMutex`` taken directly (``SeamMutex/withLockDirectly(_:)``): the
/// lock for the harness's own state that real threads share, as under stress.
///
/// Taking it is never a scheduling point, and ThreadSanitizer sees its hand-overs, which it
/// does not for `Synchronization.Mutex` under contention (that one hands over inside an
/// uninstrumented library, and TSan reported the accesses it orders as races). `body` must
/// not perform seam operations.
package final class DirectlyLocked<Value>: @unchecked Sendable {
    // Both usable from inlinable code, so that `withLock` is specialized where it is called
    // (the harness takes some of these locks for every execution); read only there.
    @usableFromInline let mutex = SeamMutex()
    /// Touched only under the mutex, so no two accesses overlap: exempt from dynamic
    /// exclusivity checking, which would look up every access at run time for nothing.
    @usableFromInline @exclusivity(unchecked) var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value, holding the lock, and returns what it returns.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLockDirectly { try body(&value) }
    }
}
