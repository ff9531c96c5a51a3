extension QueueModel: UniqueValueCheckable {
    func uniqueValueVerdict(for history: History<QueueOperation<Element>, QueueResult<Element>>)
        -> LinearizabilityVerdict<QueueOperation<Element>, QueueResult<Element>>?
    {
        guard elements.isEmpty else { return nil }
        return UniqueValueQueueCheck(history)?.verdict()
    }
}

/// The queue check for histories where each value is enqueued by at most one call.
///
/// Work on ranks (``Timeline``): value `x` is enqueued in `(a, b)` and dequeued in `(c, d)`,
/// `b` or `d` being infinite when that call is pending. A linearization is a queue order of
/// the values and a point for each call; it exists exactly when
///
/// 1. every dequeued value was enqueued, once, and not dequeued before its enqueue began
///    (`a < d`);
/// 2. no two values must each come before the other, where `x` comes before `y` if `x`'s
///    enqueue precedes `y`'s, or `x`'s dequeue precedes `y`'s, or `x`'s dequeue precedes
///    `y`'s enqueue, and every dequeued value comes before every value never dequeued; and
/// 3. every dequeue that found the queue empty has a point in its span outside every
///    value's *inner span* `[min(b, d), max(a, c)]`, during which that value was surely in
///    the queue (from its enqueue's response to its dequeue's invocation, roughly;
///    `[b, ∞)` for a value never dequeued).
///
/// Condition 2 is checked by taking values in queue order: a value can go first when its
/// enqueue's invocation is before every remaining enqueue's and dequeue's response and its
/// dequeue's invocation is before every remaining dequeue's response. Those thresholds only
/// grow, so two pointers over the values sorted by invocation and two heaps of responses find
/// the next one in O(log n). When none can go, the value whose enqueue responded first and the
/// one whose dequeue responded first each must precede the other: a FIFO violation, reported
/// as that pair. Condition 3 merges the inner spans and searches them per empty dequeue. The
/// witness puts each empty dequeue at its first free point and fills the stretches between
/// with the values whose inner spans fall there, in queue order, each call at the earliest
/// point left.
///
/// Pending calls: an enqueue whose value someone dequeued took effect (response at infinity);
/// one whose value nobody dequeued is left out (taking effect could only add constraints).
/// Pending dequeues take the values never dequeued, earliest enqueue response first (a value
/// left in the queue blocks more the earlier it was surely in, so taking it is never worse),
/// paired in invocation order; pending dequeues beyond those are left out.
///
/// The conditions and the choice for pending dequeues are checked against the search on
/// randomized histories of correct and broken queues (`LinearizabilityAgreementTests`).
struct UniqueValueQueueCheck<Element: Hashable> {
    typealias Verdict = LinearizabilityVerdict<QueueOperation<Element>, QueueResult<Element>>

    private typealias Value = CollectionCalls<Element>.Value

    private let history: History<QueueOperation<Element>, QueueResult<Element>>
    private let calls: CollectionCalls<Element>
    private var timeline: Timeline { calls.timeline }

    /// Sorts the calls by role; `nil` when a value is enqueued twice or a result does not fit
    /// its operation (the search explains those).
    init?(_ history: History<QueueOperation<Element>, QueueResult<Element>>) {
        let calls = CollectionCalls<Element>(history) { operation, result in
            switch (operation, result) {
            case (.enqueue(let value), .enqueued?), (.enqueue(let value), nil): .insertion(value)
            case (.dequeue, .dequeued(let value)?): .removal(value)
            case (.dequeue, .empty?): .emptyRemoval
            case (.dequeue, nil): .pendingRemoval
            default: nil
            }
        }
        guard let calls else { return nil }
        self.history = history
        self.calls = calls
    }

    private func violation(_ violation: CollectionViolation) -> Verdict {
        Verdict(violation, method: .uniqueValueQueue, history: history)
    }

    func verdict() -> Verdict? {
        // 1. Each dequeued value enqueued once, not dequeued before it was enqueued.
        var values: [Value]
        var undequeued: [Value]
        switch calls.values() {
        case .success(let found): (values, undequeued) = found
        case .failure(let failure): return violation(failure.violation)
        }
        // Pending dequeues take the earliest of the values never dequeued.
        let takers = calls.pendingRemovals
        for (taker, var value) in zip(takers, undequeued) {
            value.removal = taker
            value.c = timeline.invocation[taker]
            values.append(value)
        }
        undequeued.removeFirst(min(takers.count, undequeued.count))

        // 2. A queue order of the dequeued values.
        let queueOrder: [Int]
        switch Self.queueOrder(values) {
        case .success(let order): queueOrder = order
        case .failure(let pair):
            let (x, y) = (values[pair.earlier], values[pair.later])
            return violation(
                .fifo(
                    earlier: "\(x.element)", later: "\(y.element)", earlierInsertion: x.insertion,
                    laterInsertion: y.insertion, earlierRemoval: x.removal, laterRemoval: y.removal!))
        }
        if let lastInvoked = values.indices.max(by: { values[$0].a < values[$1].a }),
            let firstUndequeued = undequeued.first, firstUndequeued.b < values[lastInvoked].a
        {
            let later = values[lastInvoked]
            return violation(
                .fifo(
                    earlier: "\(firstUndequeued.element)", later: "\(later.element)",
                    earlierInsertion: firstUndequeued.insertion, laterInsertion: later.insertion, earlierRemoval: nil,
                    laterRemoval: later.removal!))
        }

        // 3. Every empty dequeue at a point no value surely occupies.
        var spans: [InnerSpan] = values.compactMap { value in
            let since = min(value.b, value.d), until = max(value.a, value.c)
            guard since < until else { return nil }
            return InnerSpan(
                start: since, end: until,
                holder: .init(
                    value: "\(value.element)", since: value.b < value.d ? value.insertion : value.removal!,
                    until: value.a > value.c ? value.insertion : value.removal!)
            )
        }
        spans += undequeued.map {
            InnerSpan(start: $0.b, end: .max, holder: .init(value: "\($0.element)", since: $0.insertion, until: nil))
        }
        let cover = Cover(spans)
        var emptyPoints: [(rank: Int, entry: Int)] = []
        for entry in calls.empties {
            guard let rank = cover.firstFreeRank(from: timeline.invocation[entry], before: timeline.response[entry])
            else {
                return violation(
                    .emptyWhileHeld(
                        observer: entry,
                        holders: cover.holders(from: timeline.invocation[entry], to: timeline.response[entry])))
            }
            emptyPoints.append((rank, entry))
        }

        let order = witness(values: values, queueOrder: queueOrder, undequeued: undequeued, emptyPoints: emptyPoints)
        return Verdict(
            witness: order, model: QueueModel(), method: .uniqueValueQueue, history: history, timeline: timeline)
    }

    /// Two values that must each come before the other.
    private struct Cycle: Error {
        let earlier: Int
        let later: Int
    }

    /// The dequeued values in an order no "comes before" contradicts, or the pair that
    /// contradicts every order.
    private static func queueOrder(_ values: [Value]) -> Swift.Result<[Int], Cycle> {
        let byEnqueueInvocation = values.indices.sorted { values[$0].a < values[$1].a }
        let byDequeueInvocation = values.indices.sorted { values[$0].c < values[$1].c }
        var enqueueResponses = MinHeap(values.indices.map { (values[$0].b, $0) })
        var dequeueResponses = MinHeap(values.indices.map { (values[$0].d, $0) })
        var placed = [Bool](repeating: false, count: values.count)
        var conditionsMet = [UInt8](repeating: 0, count: values.count)
        var ready: [Int] = []
        var order: [Int] = []
        order.reserveCapacity(values.count)
        var nextByEnqueue = 0, nextByDequeue = 0
        func meet(_ value: Int) {
            conditionsMet[value] += 1
            if conditionsMet[value] == 2, !placed[value] { ready.append(value) }
        }
        while order.count < values.count {
            while let top = enqueueResponses.top, placed[top.item] { enqueueResponses.removeTop() }
            while let top = dequeueResponses.top, placed[top.item] { dequeueResponses.removeTop() }
            let firstEnqueueResponse = enqueueResponses.top?.key ?? .max
            let firstDequeueResponse = dequeueResponses.top?.key ?? .max
            while nextByEnqueue < values.count,
                values[byEnqueueInvocation[nextByEnqueue]].a < min(firstEnqueueResponse, firstDequeueResponse)
            {
                meet(byEnqueueInvocation[nextByEnqueue])
                nextByEnqueue += 1
            }
            while nextByDequeue < values.count, values[byDequeueInvocation[nextByDequeue]].c < firstDequeueResponse {
                meet(byDequeueInvocation[nextByDequeue])
                nextByDequeue += 1
            }
            guard let next = ready.popLast() else {
                // The first enqueue response's value must precede the first dequeue
                // response's (its enqueue precedes the other's), and the reverse (the other's
                // dequeue precedes its dequeue): nothing else can block both.
                return .failure(Cycle(earlier: enqueueResponses.top!.item, later: dequeueResponses.top!.item))
            }
            placed[next] = true
            order.append(next)
        }
        return .success(order)
    }

    /// The witness: the empty dequeues at their points split time into stretches; each value
    /// goes in the first stretch that ends after its inner span would (its calls can all
    /// happen there), in queue order; each call at the earliest point after the previous
    /// enqueue or dequeue point and its own invocation.
    private func witness(
        values: [Value], queueOrder: [Int], undequeued: [Value], emptyPoints: [(rank: Int, entry: Int)]
    ) -> [Int] {
        let boundaries = Array(Set(emptyPoints.map(\.rank))).sorted()
        func stretch(_ value: Value) -> Int {
            let until = max(value.a, value.c)
            return boundaries.partitionPoint { $0 >= until }
        }
        var position = [Int](repeating: 0, count: values.count)
        for (place, value) in queueOrder.enumerated() { position[value] = place }
        let ordered = values.indices.sorted {
            (stretch(values[$0]), position[$0]) < (stretch(values[$1]), position[$1])
        }
        var points = PointAllocator()
        var lastEnqueue = Point.origin, lastDequeue = Point.origin
        var pointed: [(point: Point, entry: Int)] = []
        var next = 0
        let emptiesByRank = emptyPoints.sorted { ($0.rank, $0.entry) < ($1.rank, $1.entry) }
        var nextEmpty = 0
        for boundary in 0...boundaries.count {
            while next < ordered.count, stretch(values[ordered[next]]) == boundary {
                let value = values[ordered[next]]
                lastEnqueue = points.after(lastEnqueue, value.a)
                lastDequeue = points.after(max(lastDequeue, lastEnqueue), value.c)
                pointed.append((lastEnqueue, value.insertion))
                pointed.append((lastDequeue, value.removal!))
                next += 1
            }
            if boundary == boundaries.count {
                for value in undequeued.sorted(by: { $0.a < $1.a }) {
                    lastEnqueue = points.after(lastEnqueue, value.a)
                    pointed.append((lastEnqueue, value.insertion))
                }
            } else {
                var point = max(lastEnqueue, lastDequeue)
                while nextEmpty < emptiesByRank.count, emptiesByRank[nextEmpty].rank == boundaries[boundary] {
                    point = points.after(point, emptiesByRank[nextEmpty].rank)
                    pointed.append((point, emptiesByRank[nextEmpty].entry))
                    nextEmpty += 1
                }
                lastEnqueue = point
                lastDequeue = point
            }
        }
        return pointed.sorted { $0.point < $1.point }.map(\.entry)
    }
}
