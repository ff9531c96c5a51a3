/// A history's calls on a clock of distinct ranks: every invocation and response gets its own
/// rank, in position order, with invocations before responses at equal positions (so calls
/// that share a position overlap). A call precedes another exactly when its response rank is
/// less than the other's invocation rank, as with the positions. Pending calls respond at
/// `Int.max`.
///
/// With distinct ranks, a linearization is a choice of a point strictly inside each call's
/// span (between its two ranks), and the fast checks reason about such points.
@usableFromInline
struct Timeline {
    /// Each entry's invocation rank.
    @usableFromInline let invocation: [Int]
    /// Each entry's response rank; `Int.max` for a pending call.
    @usableFromInline let response: [Int]

    @inlinable
    init<Operation, Result>(_ history: History<Operation, Result>) {
        // (position, 0 for an invocation or 1 for a response, entry)
        var events: [(position: Int, kind: Int, entry: Int)] = []
        events.reserveCapacity(history.entries.count * 2)
        for (index, entry) in history.entries.enumerated() {
            events.append((entry.invocation, 0, index))
            if let response = entry.response { events.append((response, 1, index)) }
        }
        events.sort { ($0.position, $0.kind, $0.entry) < ($1.position, $1.kind, $1.entry) }
        var invocation = [Int](repeating: 0, count: history.entries.count)
        var response = [Int](repeating: .max, count: history.entries.count)
        for (rank, event) in events.enumerated() {
            if event.kind == 0 { invocation[event.entry] = rank } else { response[event.entry] = rank }
        }
        self.invocation = invocation
        self.response = response
    }

    /// Whether `order` lists calls so that none comes after a call it precedes.
    func isRealTimeConsistent(_ order: [Int]) -> Bool {
        var latestInvocation = Int.min
        for entry in order {
            if response[entry] < latestInvocation { return false }
            latestInvocation = max(latestInvocation, invocation[entry])
        }
        return true
    }

    /// One order of all calls of `sequences`, each of which must be real-time consistent,
    /// that keeps each sequence's order and is itself real-time consistent. Used to join the
    /// orders of independent parts (partitions, set values) into one witness.
    ///
    /// Each call gets the earliest point its sequence allows: just after the latest
    /// invocation so far in its sequence. That point lies inside its span, so sorting all
    /// calls by point keeps every real-time order; calls whose points fall between the same
    /// two ranks overlap, and may go in either order.
    @usableFromInline
    func merging(_ sequences: [[Int]]) -> [Int] {
        guard sequences.count > 1 else { return sequences.first ?? [] }
        var pointed: [(rank: Int, sequence: Int, place: Int, entry: Int)] = []
        pointed.reserveCapacity(sequences.reduce(0) { $0 + $1.count })
        for (sequenceIndex, sequence) in sequences.enumerated() {
            var latestInvocation = Int.min
            for (place, entry) in sequence.enumerated() {
                latestInvocation = max(latestInvocation, invocation[entry])
                pointed.append((latestInvocation, sequenceIndex, place, entry))
            }
        }
        pointed.sort { ($0.rank, $0.sequence, $0.place) < ($1.rank, $1.sequence, $1.place) }
        return pointed.map(\.entry)
    }
}
