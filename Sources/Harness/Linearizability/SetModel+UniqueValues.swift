extension SetModel: UniqueValueCheckable {
    func uniqueValueVerdict(for history: History<SetOperation<Element>, Bool>) -> LinearizabilityVerdict<
        SetOperation<Element>, Bool
    >? {
        guard elements.isEmpty else { return nil }
        return UniqueValueSetCheck(history)?.verdict()
    }
}

/// The set check for histories where each value is inserted by at most one call, O(n)
/// expected (one pass to group calls by value, one per value).
///
/// A set's values are independent, and a value inserted once is absent, then present from
/// the insertion's point `tA`, then absent again from a removal's point `tR` (or for ever).
/// Work on ranks (``Timeline``). Calls that found the value present (`contains` → true,
/// `insert` → false) need a point between `tA` and `tR`; calls that found it absent
/// (`contains` → false, `remove` → false) a point outside. Both kinds are best served by
/// the latest `tA` the present-finders allow (before the insertion's and every
/// present-finder's response) and the earliest `tR` (after the removal's and every
/// present-finder's invocation), so the check computes those two and tests each call
/// against them: the history is linearizable exactly when all pass. Two successful removals
/// of a value inserted once are a violation outright.
///
/// Pending calls: an insertion takes effect when some call found the value present or
/// removed it, and is left out otherwise; a pending removal serves as the removal when no
/// completed one did (the earliest invoked; the earliest `tR` it allows only helps), and is
/// left out otherwise; a pending `contains` is left out.
struct UniqueValueSetCheck<Element: Hashable> {
    typealias Verdict = LinearizabilityVerdict<SetOperation<Element>, Bool>

    /// One value's calls by role.
    private struct Calls {
        var insertion: Int?
        var present: [Int] = []
        var absent: [Int] = []
        var removals: [Int] = []
        var pendingRemovals: [Int] = []
    }

    private let history: History<SetOperation<Element>, Bool>
    private let timeline: Timeline
    private var callsOf: [Element: Calls] = [:]
    private var elementsInOrder: [Element] = []

    /// Groups the calls by value; `nil` when a value is inserted by two calls.
    init?(_ history: History<SetOperation<Element>, Bool>) {
        self.history = history
        timeline = Timeline(history)
        for (index, entry) in history.entries.enumerated() {
            let element = entry.operation.element
            if callsOf[element] == nil {
                callsOf[element] = Calls()
                elementsInOrder.append(element)
            }
            switch (entry.operation, entry.result) {
            case (.insert, _):
                guard callsOf[element]!.insertion == nil else { return nil }
                callsOf[element]!.insertion = index
            case (.remove, true?): callsOf[element]!.removals.append(index)
            case (.remove, false?): callsOf[element]!.absent.append(index)
            case (.remove, nil): callsOf[element]!.pendingRemovals.append(index)
            case (.contains, true?): callsOf[element]!.present.append(index)
            case (.contains, false?): callsOf[element]!.absent.append(index)
            case (.contains, nil): break
            }
        }
    }

    private func violation(_ violation: CollectionViolation) -> Verdict {
        Verdict(violation, method: .uniqueValueSet, history: history)
    }

    func verdict() -> Verdict? {
        var sequences: [[Int]] = []
        sequences.reserveCapacity(elementsInOrder.count)
        for element in elementsInOrder {
            switch sequence(of: element, callsOf[element]!) {
            case .success(let sequence): sequences.append(sequence)
            case .failure(let failure): return violation(failure.violation)
            }
        }
        return Verdict(
            witness: timeline.merging(sequences), model: SetModel(), method: .uniqueValueSet, history: history,
            timeline: timeline)
    }

    /// One value's calls in a legal, real-time consistent order, or why there is none.
    private func sequence(of element: Element, _ calls: Calls) -> Swift.Result<[Int], CollectionFailure> {
        let value = "\(element)"
        let byInvocation: ([Int]) -> [Int] = { $0.sorted { timeline.invocation[$0] < timeline.invocation[$1] } }
        var present = calls.present
        var insertion: Int?
        if let entry = calls.insertion {
            switch history.entries[entry].result {
            case false?: present.append(entry)
            case true?: insertion = entry
            case nil: insertion = present.isEmpty && calls.removals.isEmpty ? nil : entry
            }
        }
        guard let insertion else {
            if let observer = (present + calls.removals).min(by: { timeline.response[$0] < timeline.response[$1] }) {
                return .failure(CollectionFailure(violation: .neverInserted(value: value, observer: observer)))
            }
            return .success(byInvocation(calls.absent))
        }
        if calls.removals.count > 1 {
            let removals = calls.removals.sorted { timeline.response[$0] < timeline.response[$1] }
            return .failure(
                CollectionFailure(violation: .removedTwice(value: value, first: removals[0], second: removals[1])))
        }
        let removal =
            calls.removals.first ?? calls.pendingRemovals.min { timeline.invocation[$0] < timeline.invocation[$1] }

        // The latest insertion point: before the insertion's and every present-finder's response.
        var latestInsertion = timeline.response[insertion]
        var since = insertion
        for call in present where timeline.response[call] < latestInsertion {
            latestInsertion = timeline.response[call]
            since = call
        }
        if latestInsertion < timeline.invocation[insertion] {
            return .failure(
                CollectionFailure(
                    violation: .observedBeforeInserted(value: value, observer: since, insertion: insertion)))
        }
        // The earliest removal point: after the removal's and every present-finder's invocation.
        var earliestRemoval = removal.map { timeline.invocation[$0] } ?? .min
        var until = removal
        for call in present where timeline.invocation[call] > earliestRemoval {
            earliestRemoval = timeline.invocation[call]
            until = call
        }
        if let removal {
            if timeline.response[removal] < timeline.invocation[insertion] {
                return .failure(
                    CollectionFailure(
                        violation: .observedBeforeInserted(value: value, observer: removal, insertion: insertion)))
            }
            if let until, until != removal, earliestRemoval > timeline.response[removal] {
                return .failure(
                    CollectionFailure(violation: .observedAfterRemoved(value: value, observer: until, removal: removal))
                )
            }
        }

        // Absent-finders before the insertion point or after the removal point.
        let lastBefore: Int
        if removal != nil, earliestRemoval < latestInsertion {
            // Insertion and removal can happen right after one another, between ranks
            // `lastBefore` and `lastBefore + 1`: every absent-finder fits before or after.
            lastBefore = max(timeline.invocation[insertion], earliestRemoval)
        } else {
            lastBefore = latestInsertion - 1
            let held = CollectionViolation.Holder(value: value, since: since, until: removal == nil ? nil : until)
            for call in calls.absent where timeline.invocation[call] > latestInsertion {
                if removal == nil || timeline.response[call] < earliestRemoval {
                    return .failure(CollectionFailure(violation: .emptyWhileHeld(observer: call, holders: [held])))
                }
            }
        }
        let before = calls.absent.filter { timeline.invocation[$0] <= lastBefore }
        let after = calls.absent.filter { timeline.invocation[$0] > lastBefore }
        return .success(
            byInvocation(before) + [insertion] + byInvocation(present) + (removal.map { [$0] } ?? [])
                + byInvocation(after))
    }
}
