/// A point strictly between rank `rank` and the next: `rank + sequence·ε`, for ordering the
/// calls of a witness. Points compare by rank, then by the order they were allocated in.
struct Point: Comparable {
    var rank: Int
    var sequence: Int

    /// Before every point of every call.
    static let origin = Point(rank: .min, sequence: 0)

    static func < (lhs: Point, rhs: Point) -> Bool {
        (lhs.rank, lhs.sequence) < (rhs.rank, rhs.sequence)
    }
}

/// Hands out points in increasing allocation order.
struct PointAllocator {
    private var allocated = 0

    /// The earliest point after both `point` and rank `rank` that is later than every point
    /// allocated so far at the same rank.
    mutating func after(_ point: Point, _ rank: Int) -> Point {
        allocated += 1
        return Point(rank: max(point.rank, rank), sequence: allocated)
    }
}

/// A stretch of ranks `[start, end]` during which a value was surely in a collection, and the
/// calls that show it. `end` is `Int.max` for a value never removed.
struct InnerSpan {
    let start: Int
    let end: Int
    let holder: CollectionViolation.Holder
}

/// The union of inner spans: where a call that found the collection empty cannot have taken
/// effect.
struct Cover {
    private let spans: [InnerSpan]
    private let merged: [(start: Int, end: Int)]

    init(_ spans: [InnerSpan]) {
        self.spans = spans.sorted { $0.start < $1.start }
        var merged: [(start: Int, end: Int)] = []
        for span in self.spans {
            if let last = merged.last, span.start < last.end {
                merged[merged.count - 1].end = max(last.end, span.end)
            } else {
                merged.append((span.start, span.end))
            }
        }
        self.merged = merged
    }

    /// Whether the spans leave no gap between ranks anywhere from their first start to their
    /// last end.
    var isConnected: Bool { merged.count <= 1 }

    /// The end of the first merged stretch (the rank after which the first gap begins).
    var firstStretchEnd: Int? { merged.first?.end }

    /// The first rank `r` with `from ≤ r < before` such that the points between `r` and
    /// `r + 1` lie in no span, or `nil`.
    func firstFreeRank(from: Int, before: Int) -> Int? {
        let following = merged.partitionPoint { $0.start > from }
        var rank = from
        if following > 0, from < merged[following - 1].end { rank = merged[following - 1].end }
        return rank < before ? rank : nil
    }

    /// Spans that together cover every point from rank `from` to rank `to`, chained
    /// greedily (each reaching furthest), for explaining why nothing was free there.
    func holders(from: Int, to: Int) -> [CollectionViolation.Holder] {
        var holders: [CollectionViolation.Holder] = []
        var reached = from
        var next = 0
        var best: InnerSpan?
        while reached < to {
            while next < spans.count, spans[next].start <= reached {
                if spans[next].end > (best?.end ?? reached) { best = spans[next] }
                next += 1
            }
            guard let chosen = best, chosen.end > reached else { break }
            holders.append(chosen.holder)
            reached = chosen.end
            best = nil
        }
        return holders
    }
}

extension RandomAccessCollection {
    /// The index of the first element for which `isInSecondPart` holds, in a collection
    /// where it holds for a suffix (binary search).
    func partitionPoint(_ isInSecondPart: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if isInSecondPart(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}

extension History {
    /// Whether `order` lists every completed call exactly once and no call twice.
    func coversCompletedCallsOnce(_ order: [Int]) -> Bool {
        var seen = [Bool](repeating: false, count: entries.count)
        for entry in order {
            guard !seen[entry] else { return false }
            seen[entry] = true
        }
        return entries.indices.allSatisfy { seen[$0] || entries[$0].isPending }
    }
}
