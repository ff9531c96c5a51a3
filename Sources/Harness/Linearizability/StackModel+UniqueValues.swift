extension StackModel: UniqueValueCheckable {
    func uniqueValueVerdict(for history: History<StackOperation<Element>, StackResult<Element>>)
        -> LinearizabilityVerdict<StackOperation<Element>, StackResult<Element>>?
    {
        guard elements.isEmpty else { return nil }
        return UniqueValueStackCheck(history)?.verdict()
    }
}

/// The stack check for histories where each value is pushed by at most one call: Abdulla,
/// Grahn, Jonsson, Krishna and Mishra's algorithm (LiMo, PLDI 2025), O(n²).
///
/// Work on ranks (``Timeline``): value `x` is pushed in `(a, b)` and popped in `(c, d)`.
///
/// 1. A value whose push and pop overlap can be linearized as a push immediately followed by
///    its pop at any point in the overlap, which changes nothing else: set it aside.
/// 2. Every other value was surely on the stack from `b` to `c` (its *inner span*; `[b, ∞)`
///    if never popped). A pop that found the stack empty needs a point outside every inner
///    span; the empty pops' points cut the values into stretches checked independently.
/// 3. In a stretch, let `L` be the first inner start and `R` the last inner end. A value
///    pushed before `L` and popped after `R` can be the bottom of everything there: take all
///    such values out as the outermost ones and go on with the rest. If there is none and the
///    inner spans overlap into one from `L` to `R`, the stack was never empty in between, so
///    some value had to be at the bottom throughout: a violation. Otherwise the first gap
///    between inner spans splits the stretch in two, checked independently.
///
/// Each round costs O(n) on values kept sorted by inner start, and removes a value or splits
/// a stretch, hence O(n²). The order that falls out (bottoms' pushes, the inside, their pops
/// in reverse; stretches and empty pops in time order) is the witness, with the set-aside
/// pairs inserted after the last call that responded before the pair could begin.
///
/// Pending calls: a push whose value someone popped took effect (its pair overlaps, step 1);
/// one whose value nobody popped is left out. Pending pops are first left out; when the check
/// then fails because of a value nobody popped (an empty pop it covers, a pop under it, a
/// stretch it is the top of), a pending pop takes that value (pops in invocation order taking
/// the latest pushed first) and the check runs again, at most once per pending pop. What this
/// accepts is linearizable (its witness is checked); a history it still rejects with pending
/// pops and values never popped is left to the search, since another choice of values might
/// have worked.
struct UniqueValueStackCheck<Element: Hashable> {
    typealias Verdict = LinearizabilityVerdict<StackOperation<Element>, StackResult<Element>>

    private typealias Value = CollectionCalls<Element>.Value

    private enum Task {
        /// Check the values (indices into the nested values, sorted by inner start) and emit
        /// their calls.
        case solve([Int])
        /// Emit one call.
        case emit(Int)
    }

    private let history: History<StackOperation<Element>, StackResult<Element>>
    private let calls: CollectionCalls<Element>
    private var timeline: Timeline { calls.timeline }

    /// Sorts the calls by role; `nil` when a value is pushed twice or a result does not fit
    /// its operation (the search explains those).
    init?(_ history: History<StackOperation<Element>, StackResult<Element>>) {
        let calls = CollectionCalls<Element>(history) { operation, result in
            switch (operation, result) {
            case (.push(let value), .pushed?), (.push(let value), nil): .insertion(value)
            case (.pop, .popped(let value)?): .removal(value)
            case (.pop, .empty?): .emptyRemoval
            case (.pop, nil): .pendingRemoval
            default: nil
            }
        }
        guard let calls else { return nil }
        self.history = history
        self.calls = calls
    }

    private func violation(_ violation: CollectionViolation) -> Verdict {
        Verdict(violation, method: .uniqueValueStack, history: history)
    }

    func verdict() -> Verdict? {
        let values: [Value], unpopped: [Value]
        switch calls.values() {
        case .success(let found): (values, unpopped) = found
        case .failure(let failure): return violation(failure.violation)
        }
        let pendingPops = calls.pendingRemovals
        var taken: [Int] = []
        while true {
            switch attempt(values, unpopped: unpopped, taken: taken, pendingPops: pendingPops) {
            case .success(let order):
                return Verdict(
                    witness: order, model: StackModel(), method: .uniqueValueStack, history: history, timeline: timeline
                )
            case .failure(let failure):
                // Without pending pops, or values they could take, the check is exact.
                if pendingPops.isEmpty || unpopped.isEmpty { return violation(failure.violation) }
                guard taken.count < pendingPops.count, let culprit = failure.culprit else { return nil }
                taken.append(culprit)
            }
        }
    }

    /// Why an attempt failed, and the value never popped that caused it, if one did.
    private struct Failure: Error {
        let violation: CollectionViolation
        /// An index into the values never popped.
        let culprit: Int?
    }

    /// Steps 1–3 with the values never popped at `taken` (indices into `unpopped`) popped by
    /// the pending pops: the latest pushed by the earliest invoked.
    private func attempt(_ popped: [Value], unpopped: [Value], taken: [Int], pendingPops: [Int])
        -> Swift.Result<[Int], Failure>
    {
        var values = popped
        for (index, pop) in zip(taken.sorted { unpopped[$0].b > unpopped[$1].b }, pendingPops) {
            var value = unpopped[index]
            value.removal = pop
            value.c = timeline.invocation[pop]
            values.append(value)
        }
        let stillUnpopped = unpopped.indices.filter { !taken.contains($0) }
        let pairs = values.filter { max($0.a, $0.c) < min($0.b, $0.d) }.sorted { max($0.a, $0.c) < max($1.a, $1.c) }
        let nested = (values.filter { max($0.a, $0.c) > min($0.b, $0.d) } + stillUnpopped.map { unpopped[$0] }).sorted {
            $0.b < $1.b
        }
        /// The value never popped, among `candidates` (indices into `nested`), pushed last.
        func culprit(among candidates: some Sequence<Int>) -> Int? {
            let index = candidates.filter { nested[$0].removal == nil }.max { nested[$0].b < nested[$1].b }
            return index.flatMap { index in stillUnpopped.first { unpopped[$0].insertion == nested[index].insertion } }
        }

        // Empty pops, at points outside every inner span, cut the values into stretches.
        let cover = Cover(
            nested.map {
                InnerSpan(
                    start: $0.b, end: $0.c,
                    holder: .init(value: "\($0.element)", since: $0.insertion, until: $0.removal))
            })
        var emptyPoints: [(rank: Int, entry: Int)] = []
        for entry in calls.empties {
            let (start, end) = (timeline.invocation[entry], timeline.response[entry])
            guard let rank = cover.firstFreeRank(from: start, before: end) else {
                return .failure(
                    Failure(
                        violation: .emptyWhileHeld(observer: entry, holders: cover.holders(from: start, to: end)),
                        culprit: culprit(among: nested.indices.filter { nested[$0].b < start })
                    ))
            }
            emptyPoints.append((rank, entry))
        }
        emptyPoints.sort { ($0.rank, timeline.invocation[$0.entry]) < ($1.rank, timeline.invocation[$1.entry]) }
        let boundaries = Array(Set(emptyPoints.map(\.rank))).sorted()
        var stretches = [[Int]](repeating: [], count: boundaries.count + 1)
        for (index, value) in nested.enumerated() {
            stretches[boundaries.partitionPoint { $0 >= value.b }].append(index)
        }

        var sequence: [Int] = []
        var isBottom = [Bool](repeating: false, count: nested.count)
        var nextEmpty = 0
        for (boundary, stretch) in stretches.enumerated() {
            if let (violation, involved) = Self.solve(stretch, nested, isBottom: &isBottom, into: &sequence) {
                return .failure(Failure(violation: violation, culprit: culprit(among: involved)))
            }
            while boundary < boundaries.count, nextEmpty < emptyPoints.count,
                emptyPoints[nextEmpty].rank == boundaries[boundary]
            {
                sequence.append(emptyPoints[nextEmpty].entry)
                nextEmpty += 1
            }
        }
        return .success(inserting(pairs, into: sequence))
    }

    /// Checks one stretch (step 3) and appends its calls to `sequence` in a legal order, or
    /// returns why there is none and the values (indices into `nested`) it is about.
    private static func solve(_ stretch: [Int], _ nested: [Value], isBottom: inout [Bool], into sequence: inout [Int])
        -> (CollectionViolation, involved: [Int])?
    {
        var tasks: [Task] = [.solve(stretch)]
        while let task = tasks.popLast() {
            switch task {
            case .emit(let entry):
                sequence.append(entry)
            case .solve(let values):
                guard let first = values.first else { continue }
                let start = nested[first].b
                let end = values.lazy.map { nested[$0].c }.max()!
                let bottoms = values.filter { nested[$0].a < start && nested[$0].d >= end }.sorted {
                    nested[$0].a < nested[$1].a
                }
                if !bottoms.isEmpty {
                    for value in bottoms { isBottom[value] = true }
                    // Tasks run last first: pushes in push order, the rest, pops in reverse.
                    for value in bottoms { if let removal = nested[value].removal { tasks.append(.emit(removal)) } }
                    tasks.append(.solve(values.filter { !isBottom[$0] }))
                    for value in bottoms.reversed() { tasks.append(.emit(nested[value].insertion)) }
                    continue
                }
                var reached = nested[first].c
                var gap: Int?
                for index in values.indices.dropFirst() {
                    if nested[values[index]].b > reached {
                        gap = index
                        break
                    }
                    reached = max(reached, nested[values[index]].c)
                }
                guard let gap else {
                    let last = values.max { nested[$0].c < nested[$1].c }!
                    let (lower, upper) = (nested[first], nested[last])
                    if upper.b < lower.c, let lowerRemoval = lower.removal {
                        let violation = CollectionViolation.lifo(
                            lower: "\(lower.element)", upper: "\(upper.element)", lowerInsertion: lower.insertion,
                            upperInsertion: upper.insertion, lowerRemoval: lowerRemoval, upperRemoval: upper.removal
                        )
                        return (violation, [last])
                    }
                    return (.noBottom(firstInsertion: lower.insertion, lastRemoval: upper.removal), values)
                }
                tasks.append(.solve(Array(values[gap...])))
                tasks.append(.solve(Array(values[..<gap])))
            }
        }
        return nil
    }

    /// `sequence` with each overlapping push and pop (sorted by the later of their
    /// invocations) inserted right after the last call that responded before both were
    /// invoked: every call before it was invoked before the pair could have to be over,
    /// every call after responds after the pair could begin.
    private func inserting(_ pairs: [Value], into sequence: [Int]) -> [Int] {
        guard !pairs.isEmpty else { return sequence }
        let byResponse = sequence.indices.sorted { timeline.response[sequence[$0]] < timeline.response[sequence[$1]] }
        var latestPlace = [Int](repeating: -1, count: byResponse.count)
        for (offset, place) in byResponse.enumerated() {
            latestPlace[offset] = max(place, offset > 0 ? latestPlace[offset - 1] : -1)
        }
        var after = [[Value]](repeating: [], count: sequence.count + 1)
        for pair in pairs {
            let earlier = byResponse.partitionPoint { timeline.response[sequence[$0]] > max(pair.a, pair.c) }
            after[earlier == 0 ? 0 : latestPlace[earlier - 1] + 1].append(pair)
        }
        var order: [Int] = []
        order.reserveCapacity(sequence.count + pairs.count * 2)
        for place in 0...sequence.count {
            if place > 0 { order.append(sequence[place - 1]) }
            for pair in after[place] { order += [pair.insertion, pair.removal!] }
        }
        return order
    }
}
