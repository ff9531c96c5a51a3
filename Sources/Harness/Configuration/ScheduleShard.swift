/// One of ``count`` shards of an exploration's schedules (`HARNESS_SHARD=i/n:schedules`, or
/// ``ExplorationOptions/shard``): the schedules whose index leaves ``index`` − 1 when divided
/// by ``count``. Runs of the shards with the same seed and budget run every schedule of the
/// unsharded exploration exactly once between them, each under the index, and so the token,
/// it has there; the first schedule of each shard comes first, so every shard starts where
/// the unsharded run does.
public struct ScheduleShard: Sendable, Hashable, Codable, CustomStringConvertible {
    /// This shard, from 1.
    public let index: Int
    /// How many shards the schedules are split into.
    public let count: Int

    /// The shard counts accepted.
    public static let counts: ClosedRange<Int> = 1...1_000

    /// Shard `index` (from 1) of `count`; traps unless 1 ≤ `index` ≤ `count` ≤ 1,000.
    public init(_ index: Int, of count: Int) {
        precondition(
            Self.counts.contains(count) && (1...count).contains(index),
            "a schedule shard is i of n with 1 ≤ i ≤ n ≤ \(Self.counts.upperBound), not \(index) of \(count)")
        self.index = index
        self.count = count
    }

    /// The one shard of an exploration that is not split: every schedule.
    static let whole = ScheduleShard(1, of: 1)

    /// Whether 1 ≤ ``index`` ≤ ``count`` ≤ 1,000 (a decoded shard may break it).
    var isValid: Bool { Self.counts.contains(count) && (1...count).contains(index) }

    /// The index of this shard's schedule at `position` (from 0) among its own.
    func schedule(at position: Int) -> Int {
        index - 1 + position * count
    }

    /// How many of this shard's schedules lie among the first `budget`: what the shard runs of
    /// an exploration of `budget` schedules that does not fail.
    public func scheduleCount(budget: Int) -> Int {
        budget >= index ? (budget - index + count) / count : 0
    }

    /// `i/n`.
    public var description: String { "\(index)/\(count)" }
}
