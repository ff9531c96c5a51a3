extension ReadWriteCoordinator {
    /// The first-in first-out queue of requests waiting for their turn: amortized O(1)
    /// `append` and `popFirst`, and access to the last request (where arriving readers
    /// join a group). A popped request is released at once, so an enqueued block's
    /// captures do not outlive its run.
    struct PendingRequests {
        private var storage: [StateMachine.Request?] = []
        /// The index of the first request still waiting.
        private var head = 0

        var isEmpty: Bool { head == storage.count }

        var first: StateMachine.Request? { isEmpty ? nil : storage[head] }

        var last: StateMachine.Request? { isEmpty ? nil : storage[storage.count - 1] }

        mutating func append(_ request: StateMachine.Request) {
            storage.append(request)
        }

        /// Replaces the last request. The queue must not be empty.
        mutating func replaceLast(with request: StateMachine.Request) {
            precondition(!isEmpty, "ReadWriteCoordinator: replacing the last of no pending requests")
            storage[storage.count - 1] = request
        }

        mutating func popFirst() -> StateMachine.Request? {
            guard !isEmpty else { return nil }
            let request = storage[head]
            storage[head] = nil
            head += 1
            if head == storage.count {
                storage.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 32, head * 2 >= storage.count {
                storage.removeFirst(head)
                head = 0
            }
            return request
        }
    }
}
