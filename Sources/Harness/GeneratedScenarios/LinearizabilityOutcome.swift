/// What one history of a generated scenario was, as a stress run of a ``LinearizabilityTest``
/// counts it: linearizable, or a violation of one kind. Each kind is one row of the report,
/// whatever the values, the positions and the checker's words, so one bug is one row.
public enum LinearizabilityOutcome: Hashable, Sendable {
    /// Some sequential order of the calls explains every result.
    case linearizable
    /// The checker rejected the history, in the way `violation` says.
    case violation(HistoryViolation)

    /// The outcome of a history the checker gave `verdict` on.
    public init<Operation, Result>(_ verdict: LinearizabilityVerdict<Operation, Result>) {
        guard let kind = HistoryRejection.Kind(verdict.outcome) else {
            self = .linearizable
            return
        }
        let operations = verdict.involvedCalls.map { HistoryViolation.kind(of: verdict.history.entries[$0].operation) }
        self = .violation(HistoryViolation(kind: kind, operations: operations))
    }

    /// The violation, when the history was not linearizable.
    public var violation: HistoryViolation? {
        if case .violation(let violation) = self { violation } else { nil }
    }
}

/// The kind of a violation: how the checker rejected the history, and the kinds of the
/// operations whose calls its verdict names (the calls no order can place next, or those a
/// unique-value fact is about). Arguments, results and positions are left out, so histories
/// of one bug with other values are the same kind.
public struct HistoryViolation: Hashable, Sendable {
    /// How the checker rejected the history.
    public let kind: HistoryRejection.Kind
    /// The kinds of the operations involved, each once, in ascending order: for an enum
    /// operation with associated values its case's name (`enqueue`), for any other its
    /// description (`dequeue()`).
    public let operations: [String]

    /// A violation of `kind` involving calls of `operations` (repeats and order do not matter).
    public init(kind: HistoryRejection.Kind, operations: [String]) {
        self.kind = kind
        self.operations = Set(operations).sorted()
    }

    /// The kind of `operation`: the name of its case when it is an enum case with associated
    /// values, read from its structure, else its description (a case without associated
    /// values).
    static func kind(of operation: some Any) -> String {
        let mirror = Mirror(reflecting: operation)
        if mirror.displayStyle == .enum, let name = mirror.children.first?.label { return name }
        return "\(operation)"
    }
}

extension LinearizabilityVerdict {
    /// The calls the verdict names, as indices into ``History/entries``: for the search's dead
    /// end, the calls that could come next; for a lost wake-up, the blocked calls the model
    /// lets return; for a unique-value fact, the calls it is about;
    /// for a model that is not deterministic, the call applied twice; none otherwise.
    var involvedCalls: [Int] {
        switch outcome {
        case .linearizable, .undecided:
            return []
        case .modelNotDeterministic(let nondeterminism):
            return [nondeterminism.entry]
        case .notLinearizable(.noSequentialOrder(let deadEnd)):
            return deadEnd.blocked.map(\.entry)
        case .notLinearizable(.collection(let fact)):
            return fact.involvedCalls
        case .notLinearizable(.lostWakeUp(let lost)):
            return lost.wakeable.map(\.entry)
        }
    }
}

extension CollectionViolation {
    /// The calls the fact is about.
    var involvedCalls: [Int] {
        switch self {
        case let .neverInserted(_, observer):
            [observer]
        case let .removedTwice(_, first, second):
            [first, second]
        case let .observedBeforeInserted(_, observer, insertion):
            [observer, insertion]
        case let .observedAfterRemoved(_, observer, removal):
            [observer, removal]
        case let .fifo(_, _, earlierInsertion, laterInsertion, earlierRemoval, laterRemoval):
            [earlierInsertion, laterInsertion, laterRemoval] + (earlierRemoval.map { [$0] } ?? [])
        case let .lifo(_, _, lowerInsertion, upperInsertion, lowerRemoval, upperRemoval):
            [lowerInsertion, upperInsertion, lowerRemoval] + (upperRemoval.map { [$0] } ?? [])
        case let .noBottom(firstInsertion, lastRemoval):
            [firstInsertion] + (lastRemoval.map { [$0] } ?? [])
        case let .emptyWhileHeld(observer, holders):
            [observer] + holders.map(\.since)
        }
    }
}
