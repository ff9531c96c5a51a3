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
