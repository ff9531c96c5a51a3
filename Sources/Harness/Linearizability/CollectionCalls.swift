/// A queue's or a stack's calls by role, for its unique-value check: each value's one
/// insertion, the completed removals with the value each took, the removals that found the
/// collection empty, and the pending removals. Works on ranks (``Timeline``).
struct CollectionCalls<Element: Hashable> {
    /// What a call did.
    enum Role {
        /// Inserted the value, or is a pending insertion of it.
        case insertion(Element)
        /// Removed the value.
        case removal(Element)
        /// Found the collection empty.
        case emptyRemoval
        /// A removal still pending.
        case pendingRemoval
    }

    /// A value's calls and their ranks: inserted by `insertion` in `(a, b)`, removed by
    /// `removal` in `(c, d)`; `c` and `d` are `Int.max` while nothing removes it, and `d`
    /// stays so when a pending removal takes it.
    struct Value {
        let element: Element
        let insertion: Int
        var removal: Int?
        let a: Int, b: Int
        var c = Int.max, d = Int.max
    }

    /// The history's calls on distinct ranks.
    let timeline: Timeline
    /// The removals that found the collection empty, in invocation order.
    let empties: [Int]
    /// The pending removals, in invocation order.
    let pendingRemovals: [Int]
    private var insertionOf: [Element: Int] = [:]
    private var removals: [(element: Element, entry: Int)] = []

    /// Sorts the calls of `history` by `role`; `nil` when a value is inserted twice or a
    /// call has no role (a result that does not fit its operation): the search explains
    /// those.
    init?<Operation, Result>(_ history: History<Operation, Result>, role: (Operation, Result?) -> Role?) {
        timeline = Timeline(history)
        var empties: [Int] = []
        var pendingRemovals: [Int] = []
        for (index, entry) in history.entries.enumerated() {
            switch role(entry.operation, entry.result) {
            case .insertion(let value)?:
                guard insertionOf.updateValue(index, forKey: value) == nil else { return nil }
            case .removal(let value)?:
                removals.append((value, index))
            case .emptyRemoval?:
                empties.append(index)
            case .pendingRemoval?:
                pendingRemovals.append(index)
            case nil:
                return nil
            }
        }
        let byInvocation: (Int, Int) -> Bool = { [timeline] in timeline.invocation[$0] < timeline.invocation[$1] }
        self.empties = empties.sorted(by: byInvocation)
        self.pendingRemovals = pendingRemovals.sorted(by: byInvocation)
    }

    /// The values the completed removals took, in the order of those removals, and the
    /// values whose insertion completed but that nothing removed, earliest insertion response
    /// first; or the first removal no order explains: of a value removed before, never
    /// inserted, or removed before its insertion began.
    func values() -> Swift.Result<(removed: [Value], unremoved: [Value]), CollectionFailure> {
        var removed: [Value] = []
        var indexOf: [Element: Int] = [:]
        for (element, entry) in removals {
            if let first = indexOf[element].flatMap({ removed[$0].removal }) {
                return .failure(
                    CollectionFailure(violation: .removedTwice(value: "\(element)", first: first, second: entry)))
            }
            guard let insertion = insertionOf[element] else {
                return .failure(CollectionFailure(violation: .neverInserted(value: "\(element)", observer: entry)))
            }
            var value = Value(
                element: element, insertion: insertion, removal: entry, a: timeline.invocation[insertion],
                b: timeline.response[insertion])
            value.c = timeline.invocation[entry]
            value.d = timeline.response[entry]
            if value.d < value.a {
                return .failure(
                    CollectionFailure(
                        violation: .observedBeforeInserted(value: "\(element)", observer: entry, insertion: insertion)))
            }
            indexOf[element] = removed.count
            removed.append(value)
        }
        // A pending call responds at `Int.max` (``Timeline``): a pending insertion nothing
        // removed is left out.
        let unremoved = insertionOf.filter { indexOf[$0.key] == nil && timeline.response[$0.value] != .max }
            .map {
                Value(
                    element: $0.key, insertion: $0.value, a: timeline.invocation[$0.value],
                    b: timeline.response[$0.value])
            }
            .sorted { $0.b < $1.b }
        return .success((removed, unremoved))
    }
}
