import CShim

/// A recursive mutual-exclusion region: while one thread executes a closure inside a
/// critical section, no other thread executes inside the same instance, and the thread
/// inside may enter it again (re-entry never deadlocks).
///
/// ``execute(_:)`` waits as long as it takes; ``execute(timeout:_:)`` gives up after a
/// timeout without running the closure. The section is released however the closure
/// exits, by returning or by throwing, but not if the thread is cancelled inside it.
///
/// Waiting threads are not served in arrival order: whichever thread the system wakes or
/// runs first enters next, so a thread can in principle be passed over repeatedly.
///
/// The section is a recursive ``SeamMutex``, so an untimed entry costs one lock and one
/// unlock; a timed entry that must wait does so on a ``SeamCondition`` with a deadline on
/// ``Seam/now()``'s clock (virtual time under a harness), woken by leaving threads only
/// while timed entries wait.
public final class CriticalSection: @unchecked Sendable {
    /// The section itself: held by the thread inside, as often as it entered.
    @usableFromInline
    let lock = SeamMutex(kind: .recursive)
    /// Timed entries that must wait do so on `released`, under `waitMutex`.
    @usableFromInline
    let waitMutex = SeamMutex()
    @usableFromInline
    let released = SeamCondition()
    /// Timed entries waiting now: a thread leaving wakes them only when there are some.
    @usableFromInline
    let timedWaiters = SeamAtomic(0)

    /// An empty critical section.
    public init() {}

    /// Runs `body` inside the section, waiting as long as another thread is inside; returns
    /// its result and rethrows its error, leaving the section either way. The thread inside
    /// may enter again (the section is recursive).
    @inlinable
    public func execute<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { leave() }
        return try body()
    }

    /// Enters within `timeout`; returns whether it did.
    @usableFromInline
    func enter(timeout: Duration) -> Bool {
        if lock.tryLock() { return true }
        guard timeout > .zero else { return false }
        let deadline = Seam.now().advanced(by: timeout)
        timedWaiters.add(1)
        defer { timedWaiters.add(-1) }
        return waitMutex.withLock {
            while !lock.tryLock() {
                if released.wait(on: waitMutex, deadline: deadline) == .timedOut {
                    return lock.tryLock()
                }
            }
            return true
        }
    }

    /// Leaves the section once, waking one timed entry if any waits. A timed entry
    /// registers before it tries the lock, so one that finds the section taken is either
    /// woken by a later leave or finds it free; one woken that loses the section to another
    /// thread is woken again when that thread leaves.
    @usableFromInline
    func leave() {
        lock.unlock()
        if timedWaiters.load() > 0 {
            waitMutex.withLock { released.signal() }
        }
    }
}
