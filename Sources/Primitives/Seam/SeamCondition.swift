import CShim

/// A condition variable on a `pthread_cond_t` measuring the monotonic clock, and a seam
/// operation.
///
/// As with POSIX, a waiter may wake without a signal: wait in a loop that re-checks the
/// predicate, or use ``wait(on:until:)``.
public final class SeamCondition: @unchecked Sendable {
    @usableFromInline
    let storage: UnsafeMutablePointer<pthread_cond_t>

    /// Creates a condition variable with no waiters.
    public init() {
        storage = .allocate(capacity: 1)
        check(cshim_cond_init_monotonic(storage), "pthread_cond_init")
    }

    deinit {
        check(pthread_cond_destroy(storage), "pthread_cond_destroy")
        storage.deallocate()
    }

    /// Releases `mutex`, which the caller holds, waits for a signal (or a spurious wake-up)
    /// and re-acquires `mutex`. A cancellation point.
    @inlinable
    public func wait(on mutex: SeamMutex, file: StaticString = #fileID, line: UInt = #line) {
        _ = Seam.route(
            { $0.wait(on: self, releasing: mutex, deadline: nil, at: SeamLocation(fileID: file, line: line)) },
            otherwise: { waitDirectly(on: mutex, deadline: nil) })
    }

    /// Like ``wait(on:file:line:)``, giving up at `deadline` on ``Seam/now()``'s clock.
    /// Returns `.timedOut` when the deadline passed first; a deadline already reached does
    /// not wait (under a harness, another thread may still run before `mutex` is re-acquired).
    @inlinable
    public func wait(
        on mutex: SeamMutex,
        deadline: SeamInstant,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> SeamWaitResult {
        Seam.route(
            { $0.wait(on: self, releasing: mutex, deadline: deadline, at: SeamLocation(fileID: file, line: line)) },
            otherwise: { waitDirectly(on: mutex, deadline: deadline) })
    }

    /// Waits, with `mutex` held, until `predicate` holds; spurious wake-ups are absorbed.
    @inlinable
    public func wait(on mutex: SeamMutex, until predicate: () -> Bool, file: StaticString = #fileID, line: UInt = #line)
    {
        while !predicate() {
            wait(on: mutex, file: file, line: line)
        }
    }

    /// Waits, with `mutex` held, until `predicate` holds or `deadline` passes; returns
    /// whether the predicate holds.
    @inlinable
    public func wait(
        on mutex: SeamMutex,
        until predicate: () -> Bool,
        deadline: SeamInstant,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        while !predicate() {
            if wait(on: mutex, deadline: deadline, file: file, line: line) == .timedOut {
                return predicate()
            }
        }
        return true
    }

    /// Wakes at least one waiter, if there is any.
    @inlinable
    public func signal(file: StaticString = #fileID, line: UInt = #line) {
        Seam.route({ $0.signal(self, at: SeamLocation(fileID: file, line: line)) }, otherwise: { signalDirectly() })
    }

    /// Wakes every waiter.
    @inlinable
    public func broadcast(file: StaticString = #fileID, line: UInt = #line) {
        Seam.route(
            { $0.broadcast(self, at: SeamLocation(fileID: file, line: line)) }, otherwise: { broadcastDirectly() })
    }

    /// Waits on the real condition variable, never through a controller, with `mutex`
    /// held (inside ``SeamMutex/withLockDirectly(_:)``) until `predicate` holds: for the
    /// harness's own bookkeeping, as ``SeamMutex/withLockDirectly(_:)`` says. Wake it with
    /// ``broadcastDirectly()``.
    package func waitDirectly(on mutex: SeamMutex, until predicate: () -> Bool) {
        while !predicate() {
            _ = waitDirectly(on: mutex, deadline: nil)
        }
    }

    @usableFromInline
    func waitDirectly(on mutex: SeamMutex, deadline: SeamInstant?) -> SeamWaitResult {
        guard let deadline else {
            check(pthread_cond_wait(storage, mutex.storage), "pthread_cond_wait")
            return .signalled
        }
        let error = cshim_cond_timedwait_monotonic(storage, mutex.storage, deadline.nanoseconds)
        if error == ETIMEDOUT { return .timedOut }
        check(error, "pthread_cond_timedwait")
        return .signalled
    }

    @usableFromInline
    func signalDirectly() {
        check(pthread_cond_signal(storage), "pthread_cond_signal")
    }

    /// Wakes every waiter on the real condition variable, never through a controller: the
    /// counterpart of ``waitDirectly(on:until:)``.
    @usableFromInline
    package func broadcastDirectly() {
        check(pthread_cond_broadcast(storage), "pthread_cond_broadcast")
    }
}
