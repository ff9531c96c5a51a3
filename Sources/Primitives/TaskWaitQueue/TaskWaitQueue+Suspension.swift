extension TaskWaitQueue {
    /// Suspends the calling task as the waiter `id` until it is granted (returns) or its task
    /// is cancelled first (throws `CancellationError`).
    ///
    /// `register` runs once, synchronously, when the task has a continuation: it takes the
    /// primitive's lock, calls ``register(_:_:)`` and returns its result. `cancel` runs at
    /// most once, on whatever thread cancels the task, possibly before `register`: it takes
    /// the lock and calls ``cancel(_:)``. Resumptions are performed here, outside the lock.
    /// The task never hops executors: both the wait and the resume stay in `isolation`.
    static func suspend(
        isolation: isolated (any Actor)?,
        register: (TaskWaitContinuation) -> TaskWaitResumption?,
        cancel: @Sendable () -> TaskWaitResumption?
    ) async throws {
        try await withTaskCancellationHandler(
            operation: {
                try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
                    register(continuation)?.perform()
                }
            },
            onCancel: { cancel()?.perform() },
            isolation: isolation
        )
    }
}
