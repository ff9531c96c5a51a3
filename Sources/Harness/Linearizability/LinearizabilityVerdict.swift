/// What ``LinearizabilityChecker`` concluded about a history, with the history itself so
/// that ``description`` can say it in words.
public struct LinearizabilityVerdict<Operation, Result: Equatable> {
    /// The conclusion.
    public enum Outcome {
        /// Some sequential order of the calls, consistent with their real-time order, gives
        /// every completed call its recorded result. `order` is one such order, as indices
        /// into ``History/entries``: every completed call once, and the pending calls that
        /// took effect in it (the others, and every blocked call, are left out).
        case linearizable(order: [Int])
        /// No such order exists, and why.
        case notLinearizable(LinearizabilityViolation<Result>)
        /// The search spent its budget of `budget` steps without finding an order or ruling
        /// one out. Nothing is known: check again with a larger budget, or a partitioned
        /// model, or a shorter history.
        case undecided(budget: Int)
        /// The model answered the same call differently from equal states, so no verdict can
        /// be trusted; the search stopped there.
        case modelNotDeterministic(ModelNondeterminism<Result>)
    }

    /// Which algorithm decided.
    public enum Method: Sendable, Equatable {
        /// Wing and Gong's search with Lowe's memoization (per part, for a partitioned model).
        case search
        /// The unique-value queue check (``QueueModel``).
        case uniqueValueQueue
        /// The unique-value stack check (``StackModel``).
        case uniqueValueStack
        /// The unique-value set check (``SetModel``).
        case uniqueValueSet
    }

    /// The conclusion.
    public let outcome: Outcome
    /// The algorithm that reached it.
    public let method: Method
    /// The history checked.
    public let history: History<Operation, Result>
    /// Search steps spent (model applications tried); `0` when a fast check decided.
    public let steps: Int

    @usableFromInline
    init(_ outcome: Outcome, method: Method, history: History<Operation, Result>, steps: Int = 0) {
        self.outcome = outcome
        self.method = method
        self.history = history
        self.steps = steps
    }

    /// Whether the history is linearizable (`false` for every other outcome, including
    /// undecided).
    public var isLinearizable: Bool {
        if case .linearizable = outcome { return true }
        return false
    }

    /// The witness order when linearizable.
    public var order: [Int]? {
        if case .linearizable(let order) = outcome { return order }
        return nil
    }

    /// The violation when not linearizable.
    public var violation: LinearizabilityViolation<Result>? {
        if case .notLinearizable(let violation) = outcome { return violation }
        return nil
    }
}

/// Why no sequential order explains a history.
public enum LinearizabilityViolation<Result: Equatable>: Equatable {
    /// Found by the search: where every order it tried ran into a call the model answers
    /// differently.
    case noSequentialOrder(SearchDeadEnd<Result>)
    /// Found by a unique-value collection check: a fact about values that no order can
    /// satisfy.
    case collection(CollectionViolation)
    /// Found by the search: orders give every completed call its result, but each leaves the
    /// model in a state where some blocked call (``History/Entry/isBlocked``) could have
    /// returned. The call waited for good though nothing stopped it: a lost wake-up.
    case lostWakeUp(LostWakeUp<Result>)
}

/// Blocked calls the model lets return: the first order the search found that gives every
/// completed call its result, the state it leaves the model in, and the blocked calls the
/// model does not block there. Every other such order was tried and left some blocked call
/// able to return too.
public struct LostWakeUp<Result: Equatable>: Equatable {
    /// For a partitioned model, the part whose calls these are (its key, as text).
    public let partition: String?
    /// The order found, as indices into ``History/entries``.
    public let order: [Int]
    /// The model's state after that order, as text.
    public let modelState: String
    /// The blocked calls the model lets return in that state, each with what it answers
    /// there.
    public let wakeable: [BlockedCall<Result>]

    /// A lost wake-up with the given parts.
    public init(partition: String?, order: [Int], modelState: String, wakeable: [BlockedCall<Result>]) {
        self.partition = partition
        self.order = order
        self.modelState = modelState
        self.wakeable = wakeable
    }
}

/// Where the search for an order got stuck: the longest order it found that gives its calls
/// their results, and the calls that could come next, none of which gets its recorded result
/// from the model in the state that order leaves.
public struct SearchDeadEnd<Result: Equatable>: Equatable {
    /// For a partitioned model, the part whose calls these are (its key, as text).
    public let partition: String?
    /// The longest order found, as indices into ``History/entries``.
    public let longestPrefix: [Int]
    /// The model's state after that order, as text.
    public let modelState: String
    /// The completed calls that could come next (invoked before the earliest response among
    /// the calls left), each with what the model answers there. The first is the call with
    /// that earliest response: it must take effect before anything invoked after it.
    public let blocked: [BlockedCall<Result>]

    /// A dead end with the given parts.
    public init(partition: String?, longestPrefix: [Int], modelState: String, blocked: [BlockedCall<Result>]) {
        self.partition = partition
        self.longestPrefix = longestPrefix
        self.modelState = modelState
        self.blocked = blocked
    }
}

/// A call and the model's answer to it in a state a verdict names: in a ``SearchDeadEnd``, a
/// call the search could not place next (the model, in the state the longest order reached,
/// answers `modelAnswer`, not the call's recorded result, or makes it wait); in a
/// ``LostWakeUp``, a blocked call the model lets return with `modelAnswer`.
public struct BlockedCall<Result: Equatable>: Equatable {
    /// The call's index in ``History/entries``.
    public let entry: Int
    /// What the model answers there; `nil` when it says the call waits there
    /// (``SequentialModel/blocks(_:)``).
    public let modelAnswer: Result?

    /// The call at `entry`, which the model answers `modelAnswer` (`nil`: makes it wait).
    public init(entry: Int, modelAnswer: Result?) {
        self.entry = entry
        self.modelAnswer = modelAnswer
    }
}

/// A model that answered the same call in two ways from equal states: `apply` depends on
/// something outside the model's value (a global, a random number, a reference).
public struct ModelNondeterminism<Result: Equatable>: Equatable {
    /// The call whose operation was applied twice.
    public let entry: Int
    /// The model state it was applied to, as text.
    public let state: String
    /// The first answer.
    public let firstAnswer: Result
    /// The second answer, to an equal copy of the same state.
    public let secondAnswer: Result
    /// Whether the two copies also ended in different states (with equal answers, this is
    /// the only difference).
    public let statesDiffer: Bool

    /// A report with the given parts.
    public init(entry: Int, state: String, firstAnswer: Result, secondAnswer: Result, statesDiffer: Bool) {
        self.entry = entry
        self.state = state
        self.firstAnswer = firstAnswer
        self.secondAnswer = secondAnswer
        self.statesDiffer = statesDiffer
    }
}

/// Why a history of a queue, stack or set whose values are each inserted at most once is not
/// linearizable, as facts about calls (indices into ``History/entries``) and values (as
/// text). Each is a reason no order can work, not just the first place one search failed.
public enum CollectionViolation: Equatable, Sendable {
    /// `observer` saw `value` (removed it, or found it) but nothing ever inserted it.
    case neverInserted(value: String, observer: Int)
    /// Two calls removed `value`, which was inserted once.
    case removedTwice(value: String, first: Int, second: Int)
    /// `observer` saw `value` but responded before `insertion`, the call that inserts it, was
    /// invoked.
    case observedBeforeInserted(value: String, observer: Int, insertion: Int)
    /// `observer` found `value` in a set but was invoked after `removal` had removed it
    /// (it was inserted once).
    case observedAfterRemoved(value: String, observer: Int, removal: Int)
    /// A queue gave values out of order: `earlier` was enqueued before `later` (its enqueue
    /// responded before the other's was invoked), yet `later` was dequeued first (its
    /// dequeue responded before `earlierRemoval` was invoked: the call that dequeued
    /// `earlier`, or the pending dequeue that is the only one that can have), or `earlier`
    /// was never dequeued (`earlierRemoval` is `nil`).
    case fifo(
        earlier: String, later: String, earlierInsertion: Int, laterInsertion: Int, earlierRemoval: Int?,
        laterRemoval: Int)
    /// A stack popped `lower` while `upper` was surely above it: `upper`'s push began after
    /// `lower`'s completed and completed before `lower`'s pop began, and `upper` was popped
    /// only after that pop completed, or never (`upperRemoval` is `nil`).
    case lifo(
        lower: String, upper: String, lowerInsertion: Int, upperInsertion: Int, lowerRemoval: Int, upperRemoval: Int?)
    /// From the response of `firstInsertion` to the invocation of `lastRemoval` (for ever
    /// after, when `nil`) the stack was never empty (the values in it overlap across that
    /// span), so one value must have stayed at its bottom throughout, pushed before and popped
    /// after; but every value there was pushed later or popped earlier.
    case noBottom(firstInsertion: Int, lastRemoval: Int?)
    /// `observer` found the collection empty (or a set without its value), but throughout
    /// its span the `holders` kept a value in it.
    case emptyWhileHeld(observer: Int, holders: [Holder])

    /// A value surely in the collection from the response of `since` to the invocation of
    /// `until` (for ever after, when `until` is `nil`).
    public struct Holder: Equatable, Sendable {
        /// The value.
        public let value: String
        /// The call whose response shows the value was in by then.
        public let since: Int
        /// The call whose invocation shows the value was still in until then, or `nil`.
        public let until: Int?

        /// `value`, held from the response of `since` to the invocation of `until`.
        public init(value: String, since: Int, until: Int?) {
            self.value = value
            self.since = since
            self.until = until
        }
    }
}

extension LinearizabilityVerdict.Outcome: Equatable {}
extension LinearizabilityVerdict: Sendable where Operation: Sendable, Result: Sendable {}
extension LinearizabilityVerdict.Outcome: Sendable where Operation: Sendable, Result: Sendable {}
extension LinearizabilityViolation: Sendable where Result: Sendable {}
extension BlockedCall: Sendable where Result: Sendable {}
extension SearchDeadEnd: Sendable where Result: Sendable {}
extension LostWakeUp: Sendable where Result: Sendable {}
extension ModelNondeterminism: Sendable where Result: Sendable {}
