extension ConcurrencyLimiter {
    /// The limiter's state, changed only under its mutex. Each event is a `mutating`
    /// function returning what the caller must do after unlocking; continuations are never
    /// resumed here.
    ///
    /// Invariants: `0 <= inFlight <= limit`, and tasks wait only while every slot is taken
    /// (a released slot goes straight to the oldest waiter, so no task can overtake one that
    /// waits). A slot is counted in `inFlight` from the moment it is granted, including to a
    /// waiter whose continuation has not resumed yet, until its holder releases it.
    struct StateMachine {
        /// What a task asking to enter must do.
        enum EntryAction: Equatable {
            /// A slot was free and is now the caller's: run the body.
            case runBody
            /// Every slot is taken: suspend as this waiter.
            case suspend(TaskWaitQueue.WaiterID)
        }

        /// How many bodies may run at once.
        let limit: Int
        /// Slots granted and not yet released.
        private(set) var inFlight = 0
        private var waiters = TaskWaitQueue()

        /// Tasks queued for a slot.
        var waitingCount: Int { waiters.count }

        /// An idle limiter with `limit` slots.
        init(limit: Int) {
            self.limit = limit
        }

        /// A task asks for a slot: it takes a free one if nobody waits, otherwise queues at
        /// the tail.
        mutating func enter() -> EntryAction {
            defer { checkInvariants() }
            if waiters.isEmpty && inFlight < limit {
                inFlight += 1
                return .runBody
            }
            return .suspend(waiters.enqueue())
        }

        /// The queued task `id` has suspended on `continuation`; the returned resumption, if
        /// any, resumes it at once (it was granted a slot, or cancelled, before suspending).
        mutating func suspended(_ id: TaskWaitQueue.WaiterID, _ continuation: TaskWaitContinuation)
            -> TaskWaitResumption?
        {
            waiters.register(id, continuation)
        }

        /// The task of waiter `id` was cancelled. A waiter still queued leaves the queue
        /// without taking a slot; one already granted keeps its slot and runs its body.
        mutating func cancelled(_ id: TaskWaitQueue.WaiterID) -> TaskWaitResumption? {
            defer { checkInvariants() }
            return waiters.cancel(id)
        }

        /// A task that held a slot finished its body. The slot goes to the oldest waiter
        /// still queued, if any; the returned resumption, if any, wakes it.
        mutating func exit() -> TaskWaitResumption? {
            defer { checkInvariants() }
            precondition(inFlight > 0, "ConcurrencyLimiter: a slot was released that was never taken")
            if waiters.isEmpty {
                inFlight -= 1
                return nil
            }
            switch waiters.grantOldest() {
            case .noWaiter:
                inFlight -= 1
                return nil
            case .grantedBeforeSuspending:
                return nil
            case .resume(let resumption):
                return resumption
            }
        }

        private func checkInvariants() {
            assert(inFlight >= 0 && inFlight <= limit, "ConcurrencyLimiter: \(inFlight) slots taken of \(limit)")
            assert(waiters.isEmpty || inFlight == limit, "ConcurrencyLimiter: tasks wait while a slot is free")
        }
    }
}
