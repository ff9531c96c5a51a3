/// This run's shard of a campaign split between machines (`HARNESS_SHARD`, read by
/// ``HarnessEnvironment/shard(in:)``).
struct CampaignShard: Sendable, Hashable {
    /// This run's shard `i` of `n`.
    let part: ScheduleShard
    /// Whether each exploration's schedules are split (`i/n:schedules`) where its options can
    /// split them, rather than whole scenarios (`i/n`).
    let splitsSchedules: Bool

    /// What follows `i/n` in `HARNESS_SHARD` to split schedules.
    static let schedulesSuffix = "schedules"

    /// Whether this shard runs the whole campaign named `scenario` when it is not split by
    /// schedules: the scenarios whose name hashes to shard `i` of `n`.
    func includes(_ scenario: String) -> Bool {
        Int(ReplayToken.hash(scenario) % UInt32(part.count)) == part.index - 1
    }
}
