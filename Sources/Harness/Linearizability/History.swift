/// What happened to a shared object: each operation a client called, what it returned, and
/// when the call began and ended on a logical clock.
///
/// Positions are the order of events in the recorded run, not times: an operation
/// *precedes* another when its response position is less than the other's invocation
/// position; operations whose spans overlap (equal positions count as overlapping) are
/// concurrent, and a linearization may order them either way. An entry without a response
/// is *pending*: it was invoked and never returned (its thread was killed, or the run was cut
/// short), so it may have taken effect at any point after its invocation, or not at all. A
/// pending call is *blocked* when the run ended with it waiting for good, nothing left to wake
/// it (``markPendingCallsBlocked()``): it took no effect, and the model must say it waits in
/// the state the other calls leave (``SequentialModel/blocks(_:)``); one the model lets return
/// there was never woken (a lost wake-up).
///
/// Build a history with ``invoke(_:client:)`` and ``respond(_:with:)``, which number the
/// events in the order they are called; from entries whose positions you choose, with
/// ``init(_:)``; or from a run, with a ``HistoryRecorder``. An operation that throws has its
/// error as its result: record it as a `Swift.Result`.
public struct History<Operation, Result> {
    /// One call: who made it, what it was, what it returned, and when it began and ended.
    public struct Entry {
        /// The client (thread or task) that made the call. Only used to describe the call.
        public let client: Int
        /// What was called.
        public let operation: Operation
        /// What the call returned, or `nil` while it is pending.
        public internal(set) var result: Result?
        /// The position of the call's invocation.
        public let invocation: Int
        /// The position of the call's response, or `nil` while it is pending.
        public internal(set) var response: Int?
        /// Whether the call is pending and was still waiting, for good, when the run ended.
        public internal(set) var isBlocked: Bool

        /// A call that returned `result`. Traps unless `invocation < response`.
        public init(client: Int, operation: Operation, result: Result, invocation: Int, response: Int) {
            precondition(
                invocation < response,
                "a call must respond after it is invoked: invocation \(invocation), response \(response)")
            self.client = client
            self.operation = operation
            self.result = result
            self.invocation = invocation
            self.response = response
            self.isBlocked = false
        }

        /// A pending call: invoked at `invocation`, never returned; `blocked` when the run
        /// ended with it waiting for good.
        public init(client: Int, operation: Operation, invocation: Int, blocked: Bool = false) {
            self.client = client
            self.operation = operation
            self.result = nil
            self.invocation = invocation
            self.response = nil
            self.isBlocked = blocked
        }

        /// Whether the call never returned.
        public var isPending: Bool { response == nil }
    }

    /// The calls, in the order they were invoked with ``invoke(_:client:)`` or given to
    /// ``init(_:)``. Verdicts name calls by their index here.
    public private(set) var entries: [Entry]
    /// The position the next ``invoke(_:client:)`` or ``respond(_:with:)`` gets: one more
    /// than the last position used.
    public private(set) var nextPosition: Int

    /// An empty history.
    public init() {
        entries = []
        nextPosition = 0
    }

    /// A history of the given calls, with the positions they carry.
    public init(_ entries: [Entry]) {
        self.entries = entries
        nextPosition = entries.map { ($0.response ?? $0.invocation) + 1 }.max() ?? 0
    }

    /// Records that `client` invoked `operation`, at the next position, and returns the new
    /// entry's index for ``respond(_:with:)``. The entry is pending until then.
    @discardableResult
    public mutating func invoke(_ operation: Operation, client: Int) -> Int {
        entries.append(Entry(client: client, operation: operation, invocation: nextPosition))
        nextPosition += 1
        return entries.count - 1
    }

    /// Records that the call at `entry` returned `result`, at the next position. Traps if
    /// that call has already returned.
    public mutating func respond(_ entry: Int, with result: Result) {
        precondition(entries[entry].isPending, "call \(entry) has already returned")
        entries[entry].result = result
        entries[entry].response = nextPosition
        nextPosition += 1
    }

    /// Marks every pending call blocked (``Entry/isBlocked``): call once the run has ended with
    /// each of them waiting for good, nothing left to wake it.
    public mutating func markPendingCallsBlocked() {
        for index in entries.indices where entries[index].isPending {
            entries[index].isBlocked = true
        }
    }

    /// Whether some call is blocked.
    public var hasBlockedCalls: Bool { entries.contains(where: \.isBlocked) }

    /// The same history over other types: each call's operation and result translated (the
    /// result with its operation, since what a result means often depends on the call), its
    /// client and positions kept. Use it to check a history recorded in your own types with
    /// the collection models (``QueueModel``, ``StackModel``, ``SetModel``) and their fast
    /// checks.
    public func map<NewOperation, NewResult>(
        operation transformOperation: (Operation) throws -> NewOperation,
        result transformResult: (Operation, Result) throws -> NewResult
    ) rethrows -> History<NewOperation, NewResult> {
        var mapped = History<NewOperation, NewResult>(
            try entries.map { entry in
                let operation = try transformOperation(entry.operation)
                if let result = entry.result, let response = entry.response {
                    return .init(
                        client: entry.client, operation: operation,
                        result: try transformResult(entry.operation, result),
                        invocation: entry.invocation, response: response
                    )
                }
                return .init(
                    client: entry.client, operation: operation, invocation: entry.invocation, blocked: entry.isBlocked)
            })
        mapped.nextPosition = nextPosition
        return mapped
    }
}

extension History: Sendable where Operation: Sendable, Result: Sendable {}
extension History.Entry: Sendable where Operation: Sendable, Result: Sendable {}
extension History: Equatable where Operation: Equatable, Result: Equatable {}
extension History.Entry: Equatable where Operation: Equatable, Result: Equatable {}

extension History.Entry: CustomStringConvertible {
    /// The call as a report names it: `dequeue() → 2 (client 1, 5–9)`,
    /// `dequeue() (client 1, from 5, pending)`, or `take() (client 1, from 5, blocked)`.
    public var description: String {
        if let result, let response {
            return "\(operation) → \(result) (client \(client), \(invocation)–\(response))"
        }
        return "\(operation) (client \(client), from \(invocation), \(isBlocked ? "blocked" : "pending"))"
    }
}
