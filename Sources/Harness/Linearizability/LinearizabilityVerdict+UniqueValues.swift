/// Why a unique-value check, or a step of one, found no order.
struct CollectionFailure: Error {
    let violation: CollectionViolation
}

extension LinearizabilityVerdict {
    /// A unique-value check's verdict that `violation` rules out every order.
    init(_ violation: CollectionViolation, method: Method, history: History<Operation, Result>) {
        self.init(.notLinearizable(.collection(violation)), method: method, history: history)
    }

    /// A unique-value check's verdict for the order it built: linearizable when `order` is a
    /// linearization of `history` for `model`; otherwise `nil` (the check has a bug, and an
    /// assertion fails in debug builds), which leaves the history to the search.
    init?<Model: SequentialModel>(
        witness order: [Int], model: Model, method: Method, history: History<Operation, Result>, timeline: Timeline
    )
    where Model.Operation == Operation, Model.Result == Result {
        self.init(.linearizable(order: order), method: method, history: history)
        guard history.isLinearization(order, model: model, timeline: timeline) else {
            assertionFailure("the \(method) check built an invalid witness for a history it accepted")
            return nil
        }
    }
}
