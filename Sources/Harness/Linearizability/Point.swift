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
