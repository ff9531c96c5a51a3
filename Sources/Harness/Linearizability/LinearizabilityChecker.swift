/// Decides whether a history is linearizable: whether some sequential order of its calls,
/// consistent with their real-time order (a call that responded before another was invoked
/// comes first), gives every completed call its recorded result when applied to a sequential
/// model. Pending calls may take effect at any point after their invocation, with any result,
/// or not at all. No call takes effect where the model blocks it
/// (``SequentialModel/blocks(_:)``), and blocked calls (``History/Entry/isBlocked``) take
/// none: the history is linearizable only when some such order leaves the model in a state
/// that blocks each of them; otherwise the verdict is a ``LostWakeUp``.
///
/// Which algorithm decides:
///
/// - For ``QueueModel``, ``StackModel`` and ``SetModel`` starting empty, on a history where
///   each value is inserted (enqueued, pushed, inserted) by at most one call, a fast check
///   decides without search: queues in O(n log n), sets in O(n) (expected, with hashing),
///   stacks in O(n²), after Abdulla et al.'s LiMo (PLDI 2025) and Lee and Mathur (2024).
///   Their violations say which values broke the discipline (``CollectionViolation``).
///   Pending calls are handled exactly, except pending pops: the stack check lets them take
///   the values whose presence makes it fail, and a history it still rejects while pending
///   pops could have taken other values goes to the search, like every history these checks
///   do not cover, and every history with a blocked call. Set ``usesFastChecks`` to `false` to always search.
/// - Otherwise, Wing and Gong's search with Lowe's memoization, as in Porcupine: it tries
///   calls in every order the real-time order allows, completed calls before pending ones,
///   and never revisits a pair (calls applied, model state); run on each independent part
///   separately when the model names parts (``SequentialModel/partitionKey(of:)``), smallest
///   part first. The search is exponential
///   in the worst case, so it has a budget of steps, shared by the parts; when it runs out
///   the verdict is ``LinearizabilityVerdict/Outcome/undecided(budget:)``, never a guess.
///
/// A search that fails reports the longest order it found and what the model answers to each
/// call that could come next. A model that answers one call two ways is reported as such
/// (``LinearizabilityVerdict/Outcome/modelNotDeterministic(_:)``).
public struct LinearizabilityChecker: Sendable {
    /// The default budget: a million model applications, around a second of search at most
    /// for simple models.
    public static let defaultBudget = 1_000_000

    /// The most search steps (model applications tried) one check may take.
    public var budget: Int
    /// Whether collection models use their unique-value checks when those apply.
    public var usesFastChecks: Bool

    /// A checker with the given budget (at least 1). Traps on a smaller one.
    public init(budget: Int = LinearizabilityChecker.defaultBudget, usesFastChecks: Bool = true) {
        precondition(budget >= 1, "the linearizability search budget must be at least 1, not \(budget)")
        self.budget = budget
        self.usesFastChecks = usesFastChecks
    }

    /// Checks `history` against `model` (its initial state) with the default budget and the
    /// fast checks on: `LinearizabilityChecker().check(history, model: model)`.
    @inlinable
    public static func check<Model: SequentialModel>(
        _ history: History<Model.Operation, Model.Result>,
        model: Model
    ) -> LinearizabilityVerdict<Model.Operation, Model.Result> {
        LinearizabilityChecker().check(history, model: model)
    }

    /// Checks `history` against `model`, which is the state before the first call.
    ///
    /// Never hangs: the fast checks are polynomial, and the search stops at ``budget`` steps
    /// with an undecided verdict. Inlinable, so that the search is specialized for the model
    /// in the caller's module: unspecialized, every model application and memo lookup would
    /// go through witness tables, several times slower.
    @inlinable
    public func check<Model: SequentialModel>(
        _ history: History<Model.Operation, Model.Result>,
        model: Model
    ) -> LinearizabilityVerdict<Model.Operation, Model.Result> {
        if usesFastChecks, !history.hasBlockedCalls, let verdict = Self.fastVerdict(history, model: model) {
            return verdict
        }
        return search(history, model: model)
    }

    /// The search, part by part.
    @inlinable
    func search<Model: SequentialModel>(
        _ history: History<Model.Operation, Model.Result>,
        model: Model
    ) -> LinearizabilityVerdict<Model.Operation, Model.Result> {
        let timeline = Timeline(history)
        var remaining = budget
        var orders: [[Int]] = []
        for part in Self.parts(of: history, model: Model.self) {
            let conclusion = LinearizationSearch.run(
                history, timeline: timeline, entries: part.entries, partition: part.key, model: model,
                budget: &remaining)
            let steps = budget - remaining
            switch conclusion {
            case .linearizable(let order):
                orders.append(order)
            case .stuck(let deadEnd):
                return LinearizabilityVerdict(
                    .notLinearizable(.noSequentialOrder(deadEnd)), method: .search, history: history, steps: steps)
            case .budgetExhausted:
                return LinearizabilityVerdict(
                    .undecided(budget: budget), method: .search, history: history, steps: steps)
            case .nondeterministic(let report):
                return LinearizabilityVerdict(
                    .modelNotDeterministic(report), method: .search, history: history, steps: steps)
            case .lostWakeUp(let report):
                return LinearizabilityVerdict(
                    .notLinearizable(.lostWakeUp(report)), method: .search, history: history, steps: steps)
            }
        }
        return LinearizabilityVerdict(
            .linearizable(order: timeline.merging(orders)), method: .search, history: history, steps: budget - remaining
        )
    }

    /// The independent parts of `history`, smallest first (ties in order of first call): one
    /// per partition key, or the whole history when some call has no key.
    @inlinable
    static func parts<Model: SequentialModel>(
        of history: History<Model.Operation, Model.Result>,
        model: Model.Type
    ) -> [(key: String?, entries: [Int])] {
        var indexOfKey: [Model.PartitionKey: Int] = [:]
        var parts: [(key: String?, entries: [Int])] = []
        for (index, entry) in history.entries.enumerated() {
            guard let key = Model.partitionKey(of: entry.operation) else {
                return [(nil, Array(history.entries.indices))]
            }
            if let part = indexOfKey[key] {
                parts[part].entries.append(index)
            } else {
                indexOfKey[key] = parts.count
                parts.append(("\(key)", [index]))
            }
        }
        return parts.enumerated().sorted {
            ($0.element.entries.count, $0.offset) < ($1.element.entries.count, $1.offset)
        }.map(\.element)
    }

    /// The verdict of the model's unique-value check, when it has one that applies.
    @usableFromInline
    static func fastVerdict<Model: SequentialModel>(
        _ history: History<Model.Operation, Model.Result>,
        model: Model
    ) -> LinearizabilityVerdict<Model.Operation, Model.Result>? {
        guard let checkable = model as? any UniqueValueCheckable else { return nil }
        return uniqueValueVerdict(of: checkable, for: history) as? LinearizabilityVerdict<Model.Operation, Model.Result>
    }

    private static func uniqueValueVerdict<Model: UniqueValueCheckable>(of model: Model, for history: Any) -> Any? {
        guard let history = history as? History<Model.Operation, Model.Result> else { return nil }
        return model.uniqueValueVerdict(for: history)
    }
}

/// A model with a check for histories whose values are inserted at most once each.
protocol UniqueValueCheckable: SequentialModel {
    /// The verdict, or `nil` when the check does not apply to `history` (a value inserted
    /// twice, a model that does not start empty, a case the check leaves to the search).
    func uniqueValueVerdict(for history: History<Operation, Result>) -> LinearizabilityVerdict<Operation, Result>?
}
