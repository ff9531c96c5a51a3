extension AsyncCondition {
    /// The event shared by a condition, its signal and their copies: a state machine under a
    /// mutex. Continuations are resumed outside the mutex.
    final class Storage: @unchecked Sendable {
        private let mutex = SeamMutex()
        /// Guarded by `mutex`.
        private var state = StateMachine()

        /// Whether the signal has been sent.
        var isSignalled: Bool { mutex.withLock { state.isSignalled } }

        /// Tasks waiting for the signal.
        var waiterCount: Int { mutex.withLock { state.waiterCount } }

        /// Returns once signalled; throws `CancellationError` if the task is cancelled first.
        func wait(isolation: isolated (any Actor)?) async throws {
            guard case .suspend(let id) = mutex.withLock({ state.wait() }) else { return }
            try await TaskWaitQueue.suspend(
                isolation: isolation,
                register: { continuation in mutex.withLock { state.suspended(id, continuation) } },
                cancel: { self.mutex.withLock { self.state.cancelled(id) } }
            )
        }

        /// Sends the signal and resumes the waiters it releases, after unlocking.
        func signal() {
            for resumption in mutex.withLock({ state.signal() }) {
                resumption.perform()
            }
        }
    }

    /// The event's state, changed only under its mutex. Each event is a `mutating` function
    /// returning what the caller must do after unlocking.
    ///
    /// Invariant: once signalled, nobody is queued (waiters granted before they suspended
    /// may still be in the table until they register, and resume at once when they do).
    struct StateMachine {
        /// What a task that starts waiting must do.
        enum WaitAction: Equatable {
            /// The signal was sent already: return.
            case proceed
            /// Suspend as this waiter.
            case suspend(TaskWaitQueue.WaiterID)
        }

        /// Whether the signal has been sent; never reset.
        private(set) var isSignalled = false
        private var waiters = TaskWaitQueue()

        /// Tasks waiting for the signal.
        var waiterCount: Int { waiters.count }

        /// A task starts waiting.
        mutating func wait() -> WaitAction {
            isSignalled ? .proceed : .suspend(waiters.enqueue())
        }

        /// Waiter `id` has suspended on `continuation`; the returned resumption, if any,
        /// resumes it at once (the signal was sent, or it was cancelled, before it suspended).
        mutating func suspended(_ id: TaskWaitQueue.WaiterID, _ continuation: TaskWaitContinuation)
            -> TaskWaitResumption?
        {
            waiters.register(id, continuation)
        }

        /// The task of waiter `id` was cancelled; a waiter not yet released leaves.
        mutating func cancelled(_ id: TaskWaitQueue.WaiterID) -> TaskWaitResumption? {
            waiters.cancel(id)
        }

        /// The signal is sent: every waiter is released, and later waits proceed. Returns
        /// the resumptions to perform, oldest waiter first; none the second time.
        mutating func signal() -> [TaskWaitResumption] {
            guard !isSignalled else { return [] }
            isSignalled = true
            return waiters.grantAll()
        }
    }
}
