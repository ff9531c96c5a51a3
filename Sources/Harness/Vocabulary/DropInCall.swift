import Primitives

/// A call the code under test made on a drop-in (`queue#1 sync`, `semaphore#2 wait`), carried
/// by the step where its seam operations began (``TraceStep/call``). Its other seam operations
/// are the drop-in's own (``TraceStep/isBookkeeping``): a report shows the call the user wrote,
/// numbered among the drop-ins of its kind, and never the mutexes and conditions inside it.
public struct DropInCall: Sendable, Hashable, Codable {
    /// The drop-in called: `queue#1`.
    public let object: SharedObject
    /// The method called.
    public let operation: SeamCall.Operation
    /// Whether the call's block runs alone (see ``SeamCall/isExclusive``): a queue's block that
    /// is not exclusive only reads what the queue guards.
    public let isExclusive: Bool
    /// Whether the call was a wait that returned because its timeout passed.
    public let timedOut: Bool

    /// `call`, made on the drop-in named `object`, not (yet) timed out.
    init(_ call: SeamCall, object: SharedObject) {
        self.init(object: object, operation: call.operation, isExclusive: call.isExclusive, timedOut: false)
    }

    private init(object: SharedObject, operation: SeamCall.Operation, isExclusive: Bool, timedOut: Bool) {
        self.object = object
        self.operation = operation
        self.isExclusive = isExclusive
        self.timedOut = timedOut
    }

    /// The call as it ended with `outcome`.
    func ended(_ outcome: SeamCall.Outcome) -> DropInCall {
        DropInCall(object: object, operation: operation, isExclusive: isExclusive, timedOut: outcome == .timedOut)
    }
}

extension SeamCall.Operation: Codable {}
