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
/// Built on a ``SeamMutex`` and a ``SeamCondition``, with the owning thread (`pthread_self`)
/// and its depth of re-entry as state, so timeouts are measured on ``Seam/now()``'s clock
/// and a harness sees every step.
public final class CriticalSection: @unchecked Sendable {
    private let mutex = SeamMutex()
    private let released = SeamCondition()
    // The state below is guarded by `mutex`, which already gives exclusive access: the
    // run-time exclusivity checks would only double the cost of an entry.

    /// The thread inside, if any.
    @exclusivity(unchecked) private var owner: pthread_t?
    /// How many times `owner` has entered without leaving.
    @exclusivity(unchecked) private var depth = 0
    /// Threads waiting on `released`.
    @exclusivity(unchecked) private var waiters = 0

    /// Creates a critical section that no thread is inside.
    public init() {}

    /// Runs `body` inside the critical section and returns what it returns, waiting as long
    /// as another thread is inside. The calling thread may already be inside; it then
    /// enters again at once.
    ///
    /// Rethrows what `body` throws, after leaving the critical section.
    @inlinable
    public func execute<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let entered = enter(timeout: nil)
        assert(entered, "CriticalSection: an untimed entry cannot time out")
        defer { leave() }
        return try body()
    }

    /// Enters for the calling thread, waiting while another thread is inside, for at most
    /// `timeout` (measured from the moment waiting starts) when one is given. Returns
    /// whether it entered.
    @usableFromInline
    func enter(timeout: Duration?) -> Bool {
        let caller = pthread_self()
        return mutex.withLock {
            if let owner, pthread_equal(owner, caller) != 0 {
                depth += 1
                return true
            }
            if owner != nil {
                if let timeout, timeout <= .zero { return false }
                waiters += 1
                defer { waiters -= 1 }
                if let timeout {
                    let deadline = Seam.now().advanced(by: timeout)
                    guard released.wait(on: mutex, until: { owner == nil }, deadline: deadline) else { return false }
                } else {
                    released.wait(on: mutex, until: { owner == nil })
                }
            }
            owner = caller
            depth = 1
            return true
        }
    }

    /// Leaves once for the calling thread, which is inside; the last leave wakes a waiter.
    @usableFromInline
    func leave() {
        let wakeWaiter = mutex.withLock {
            assert(
                owner.map { pthread_equal($0, pthread_self()) != 0 } == true,
                "CriticalSection: left by a thread that is not inside"
            )
            depth -= 1
            guard depth == 0 else { return false }
            owner = nil
            return waiters > 0
        }
        if wakeWaiter { released.signal() }
    }
}
