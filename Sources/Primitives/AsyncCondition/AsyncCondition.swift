/// The waiting side of a one-shot event between tasks: ``wait(isolation:)`` returns once the
/// paired ``AsyncSignal`` has been sent, whether that happened before or after the wait began.
///
/// ```swift
/// let (loaded, markLoaded) = AsyncCondition.makeCondition()
/// // in the loading task:
/// markLoaded.signal()
/// // in any number of other tasks:
/// try await loaded.wait()
/// ```
///
/// The event happens once and stays happened: one ``AsyncSignal/signal()`` releases every
/// task waiting now and every task that waits later, and further signals do nothing. It is
/// not a condition variable (compare ``SeamCondition``, which blocks threads and can be
/// signalled many times): nothing is reset and no predicate is re-checked.
///
/// Copies of a condition share the event. Waiting never blocks a thread: the task suspends.
/// Shared state is touched only through the runtime seam (``SeamMutex``,
/// ``Seam/resume(_:with:file:line:)``), so a harness can schedule it.
///
/// If the signal is never sent (for instance, every copy of the ``AsyncSignal`` is dropped),
/// waiting tasks wait until they are cancelled.
public struct AsyncCondition: Sendable {
    /// The event, shared with the paired signal.
    let storage: Storage

    /// Creates an unsignalled event: the condition to wait on and the signal that releases
    /// its waiters. Hand each to the tasks that play that role.
    public static func makeCondition() -> (AsyncCondition, AsyncSignal) {
        let storage = Storage()
        return (AsyncCondition(storage: storage), AsyncSignal(storage: storage))
    }

    /// Returns once the signal has been sent: at once if it was sent already, otherwise when
    /// it is.
    ///
    /// Throws `CancellationError` if the calling task is cancelled before the signal is sent
    /// (at entry, or while suspended). When the signal and the cancellation race, whichever
    /// the condition sees first decides; a wait that finds the signal sent returns normally
    /// even from a cancelled task.
    ///
    /// - Parameter isolation: The caller's isolation, which the task keeps while it waits
    ///   and resumes in. Leave the default.
    public func wait(isolation: isolated (any Actor)? = #isolation) async throws {
        try await storage.wait(isolation: isolation)
    }

    /// Whether the signal has been sent. A snapshot: `false` may be stale at once.
    public var isSignalled: Bool { storage.isSignalled }

    /// How many tasks wait for the signal right now. A snapshot for monitoring and tests: a
    /// task counts from the moment it starts waiting until it is released or cancelled.
    public var waiterCount: Int { storage.waiterCount }
}

/// The sending side of a one-shot event: ``signal()`` releases every task that waits, or will
/// wait, on the paired ``AsyncCondition``.
///
/// Copies of a signal share the event; any of them may send it, from any thread or task,
/// synchronously (signalling never suspends or blocks beyond a short lock).
public struct AsyncSignal: Sendable {
    /// The event, shared with the paired condition.
    let storage: AsyncCondition.Storage

    /// Sends the signal: releases every task waiting on the condition now, oldest first, and
    /// lets every later wait return at once. Signalling again does nothing.
    public func signal() {
        storage.signal()
    }

    /// Whether the signal has been sent.
    public var isSignalled: Bool { storage.isSignalled }
}
