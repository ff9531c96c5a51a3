/// A sequential specification: a value that answers operations one at a time, the way the
/// object under test should behave if its operations never overlapped.
///
/// The linearizability checker applies operations to copies of a model in every order the
/// history allows, and keeps the `(operations applied, model)` pairs it has seen to avoid
/// repeating work (Lowe's memoization), hence `Hashable`: two models must be equal exactly
/// when they answer every future operation alike. `apply` must be deterministic: the same
/// operation applied to equal models must give equal results and equal models. The checker
/// verifies this on every application and reports a model that breaks it
/// (``LinearizabilityVerdict/Outcome/modelNotDeterministic(_:)``) rather than trusting it.
///
/// A model whose state splits into independent parts, each operation touching exactly one
/// (a key-value map: one key per operation), says so with ``partitionKey(of:)``. The checker
/// then checks each part's operations on their own (P-compositionality, Herlihy and Wing's
/// locality), which turns one search exponential in the whole history into one per part.
public protocol SequentialModel: Hashable {
    /// An operation the object offers, with its arguments.
    associatedtype Operation
    /// What an operation returns. An operation that can throw returns its error in here
    /// (`Swift.Result`).
    associatedtype Result: Equatable
    /// The independent part of the state an operation touches, when there are such parts.
    associatedtype PartitionKey: Hashable = Never

    /// Performs `operation` and returns what it answers.
    mutating func apply(_ operation: Operation) -> Result

    /// Whether `operation`, called in this state, must wait: no call made here returns until
    /// other calls change the state. The checker never places a call where its operation
    /// blocks, and never calls ``apply(_:)`` there, so `apply` need not answer for such states.
    /// A call still waiting when the run ended is justified only by a state where this is
    /// `true`. The default is `false`: every operation returns in every state.
    func blocks(_ operation: Operation) -> Bool

    /// The independent part of the state that `operation` reads and writes, or `nil` when the
    /// model has no such parts. Operations with different keys must not affect each other's
    /// results: the checker checks each key's operations against its own copy of the initial
    /// model. If any operation of a history has no key, the history is checked whole.
    static func partitionKey(of operation: Operation) -> PartitionKey?
}

extension SequentialModel {
    /// No operation ever waits.
    @inlinable
    public func blocks(_ operation: Operation) -> Bool { false }
}

extension SequentialModel where PartitionKey == Never {
    /// No independent parts: histories are checked whole.
    public static func partitionKey(of operation: Operation) -> Never? { nil }
}
