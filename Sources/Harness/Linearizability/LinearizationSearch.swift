/// Wing and Gong's search for a linearization of one set of calls, with Lowe's memoization,
/// as Porcupine does it.
///
/// The calls' invocation and response events sit in one list, in rank order. The search
/// walks it from the front (completed calls first, then pending ones, which can always wait
/// for the end): at an invocation it tries to apply that call to the model next
/// (allowed only before the first response still in the list, since that call must take
/// effect before it responded); if the model gives the recorded result (any result, for a
/// pending call) and the pair (calls applied, model state) is new, it lifts the call's
/// events out of the list and starts again from the front. Reaching a response means no call
/// before it can go next: it undoes the last call and tries the one after it. It succeeds
/// once every completed call is applied (pending calls may be left out: they took no
/// effect) and the model blocks every blocked call there, and fails when it must undo with
/// nothing applied. Blocked calls are never applied, and no call is applied where the model
/// blocks it (``SequentialModel/blocks(_:)``).
///
/// The memo set makes the search visit each (calls applied, state) pair once, so it takes at
/// most (number of reachable pairs) × (calls) steps; that is exponential in the worst case
/// (the problem is NP-complete) and small for histories with little concurrency.
@usableFromInline
struct LinearizationSearch<Model: SequentialModel> {
    /// How a search ended.
    @usableFromInline
    enum Conclusion {
        /// An order of the searched calls, as entry indices.
        case linearizable([Int])
        /// No order: the longest order found and the calls that could not follow it.
        case stuck(SearchDeadEnd<Model.Result>)
        /// The budget ran out.
        case budgetExhausted
        /// The model answered one call two ways.
        case nondeterministic(ModelNondeterminism<Model.Result>)
        /// Every order of the completed calls leaves some blocked call able to return.
        case lostWakeUp(LostWakeUp<Model.Result>)
    }

    @usableFromInline
    struct Key: Hashable {
        @usableFromInline var applied: CallSet
        @usableFromInline var state: Model

        @inlinable
        init(applied: CallSet, state: Model) {
            self.applied = applied
            self.state = state
        }
    }

    /// Searches the calls `entries` (indices into `history.entries`) of `history`, starting
    /// from `model`, spending at most `budget` steps (model applications tried); `budget`
    /// is decreased by the steps spent. `partition` names the part, for the explanation.
    @inlinable
    static func run(
        _ history: History<Model.Operation, Model.Result>,
        timeline: Timeline,
        entries: [Int],
        partition: String?,
        model: Model,
        budget: inout Int
    ) -> Conclusion {
        let waiting = entries.filter { history.entries[$0].isBlocked }
        let calls = waiting.isEmpty ? entries : entries.filter { !history.entries[$0].isBlocked }
        /// Whether the model blocks every blocked call in `state`.
        func waitingCallsWait(in state: Model) -> Bool {
            waiting.allSatisfy { state.blocks(history.entries[$0].operation) }
        }
        let count = calls.count
        // Events 1...2·count in rank order; 0 is the list's head.
        var ranked: [(rank: Int, call: Int, isInvocation: Bool)] = []
        ranked.reserveCapacity(count * 2)
        for (call, entry) in calls.enumerated() {
            ranked.append((timeline.invocation[entry], call, true))
            ranked.append((timeline.response[entry], call, false))
        }
        // Pending responses all rank Int.max; order them by call for determinism.
        ranked.sort { ($0.rank, $0.call) < ($1.rank, $1.call) }
        var isInvocation = [false]
        var callOf = [-1]
        var responseEvent = [Int](repeating: 0, count: count)
        var invocationEvent = [Int](repeating: 0, count: count)
        for (offset, event) in ranked.enumerated() {
            isInvocation.append(event.isInvocation)
            callOf.append(event.call)
            if event.isInvocation {
                invocationEvent[event.call] = offset + 1
            } else {
                responseEvent[event.call] = offset + 1
            }
        }
        var list = EventList(count: count * 2)
        let isPending = calls.map { history.entries[$0].isPending }
        var unappliedCompleted = isPending.count { !$0 }
        var applied = CallSet()
        var state = model
        var undo: [(call: Int, state: Model)] = []
        var seen: Set<Key> = []
        var longest: [Int] = []
        var event = list.next[0]
        // Completed calls are tried before pending ones: a pending call can always wait until
        // the end (where it changes no result), so it only needs to go earlier when that
        // helps some completed call, and trying it first mostly multiplies states.
        var pendingPass = false
        // The first order of every completed call that left a blocked call able to return.
        var firstComplete: (order: [Int], state: Model)?
        while unappliedCompleted > 0 || !waitingCallsWait(in: state) {
            if unappliedCompleted == 0, firstComplete == nil {
                firstComplete = (undo.map { calls[$0.call] }, state)
            }
            if event != -1, isInvocation[event], isPending[callOf[event]] != pendingPass {
                event = list.next[event]
            } else if event != -1, isInvocation[event] {
                guard budget > 0 else { return .budgetExhausted }
                budget -= 1
                let call = callOf[event]
                let entry = history.entries[calls[call]]
                guard !state.blocks(entry.operation) else {
                    event = list.next[event]
                    continue
                }
                var after = state
                let answer = after.apply(entry.operation)
                var again = state
                let secondAnswer = again.apply(entry.operation)
                if answer != secondAnswer || after != again {
                    return .nondeterministic(
                        ModelNondeterminism(
                            entry: calls[call], state: "\(state)", firstAnswer: answer, secondAnswer: secondAnswer,
                            statesDiffer: after != again
                        ))
                }
                if entry.result.map({ $0 == answer }) ?? true {
                    var appliedAfter = applied
                    appliedAfter.insert(call)
                    if seen.insert(Key(applied: appliedAfter, state: after)).inserted {
                        undo.append((call, state))
                        state = after
                        applied = appliedAfter
                        list.remove(invocationEvent[call])
                        list.remove(responseEvent[call])
                        if !isPending[call] { unappliedCompleted -= 1 }
                        if undo.count > longest.count { longest = undo.map(\.call) }
                        event = list.next[0]
                        pendingPass = false
                        continue
                    }
                }
                event = list.next[event]
            } else if !pendingPass {
                pendingPass = true
                event = list.next[0]
            } else {
                guard let last = undo.popLast() else {
                    if let firstComplete {
                        return .lostWakeUp(
                            LostWakeUp(
                                partition: partition, order: firstComplete.order,
                                modelState: "\(firstComplete.state)",
                                wakeable: waiting.compactMap { entry in
                                    var copy = firstComplete.state
                                    let operation = history.entries[entry].operation
                                    guard !copy.blocks(operation) else { return nil }
                                    return BlockedCall(entry: entry, modelAnswer: copy.apply(operation))
                                }))
                    }
                    return .stuck(
                        deadEnd(
                            history, timeline: timeline, calls: calls, model: model, longest: longest,
                            partition: partition))
                }
                state = last.state
                applied.remove(last.call)
                list.restore(responseEvent[last.call])
                list.restore(invocationEvent[last.call])
                if !isPending[last.call] { unappliedCompleted += 1 }
                pendingPass = isPending[last.call]
                event = list.next[invocationEvent[last.call]]
            }
        }
        return .linearizable(undo.map { calls[$0.call] })
    }

    /// Explains a failed search from the longest order it found: replays that order, then
    /// lists the completed calls that could come next (invoked before the earliest response
    /// among the calls left) whose recorded result the model does not give there, the one
    /// with that earliest response first. Every such call fails there, or the search would
    /// have gone deeper.
    @usableFromInline
    static func deadEnd(
        _ history: History<Model.Operation, Model.Result>,
        timeline: Timeline,
        calls: [Int],
        model: Model,
        longest: [Int],
        partition: String?
    ) -> SearchDeadEnd<Model.Result> {
        var state = model
        for call in longest { _ = state.apply(history.entries[calls[call]].operation) }
        let placed = Set(longest)
        let left = calls.indices.filter { !placed.contains($0) }.map { calls[$0] }
        let deadline = left.filter { !history.entries[$0].isPending }.min {
            timeline.response[$0] < timeline.response[$1]
        }
        var blocked: [BlockedCall<Model.Result>] = []
        if let deadline {
            let candidates =
                [deadline]
                + left.filter {
                    $0 != deadline && !history.entries[$0].isPending
                        && timeline.invocation[$0] < timeline.response[deadline]
                }.sorted { timeline.invocation[$0] < timeline.invocation[$1] }
            for entry in candidates {
                var copy = state
                let operation = history.entries[entry].operation
                let answer = copy.blocks(operation) ? nil : copy.apply(operation)
                if answer != history.entries[entry].result || entry == deadline {
                    blocked.append(BlockedCall(entry: entry, modelAnswer: answer))
                }
            }
        }
        return SearchDeadEnd(
            partition: partition, longestPrefix: longest.map { calls[$0] }, modelState: "\(state)", blocked: blocked)
    }
}

/// A doubly linked list of events 1...count behind a head at 0, with `-1` for none, whose
/// removals can be undone in reverse order (Knuth's dancing links).
@usableFromInline
struct EventList {
    @usableFromInline var next: [Int]
    @usableFromInline var previous: [Int]

    @inlinable
    init(count: Int) {
        next = Array(1...(count + 1))
        next[count] = -1
        previous = Array(-1..<count)
    }

    @inlinable
    mutating func remove(_ event: Int) {
        next[previous[event]] = next[event]
        if next[event] != -1 { previous[next[event]] = previous[event] }
    }

    /// Puts back `event`, which must be the last one removed that is not yet restored.
    @inlinable
    mutating func restore(_ event: Int) {
        next[previous[event]] = event
        if next[event] != -1 { previous[next[event]] = event }
    }
}
