/// The options a front door starts a campaign from: what the environment may override and
/// what is checked before anything runs.
protocol CampaignOptions: RangedOptions, Sendable {
    /// These options with the knobs `environment` sets overriding them; throws an error naming
    /// the variable and what it expected when a value is invalid, or when a `HARNESS_` variable
    /// is not a ``Knob``.
    func applyingEnvironment(_ environment: [String: String]) throws(HarnessConfigurationError) -> Self
    /// The replay token the options hold: the campaign replays it instead of exploring.
    var replayToken: ReplayToken? { get }
    /// These options running only `shard`'s schedules of the exploration, or `nil` when they
    /// cannot split their schedules, and the campaign goes whole to one shard instead.
    func splittingSchedules(_ shard: ScheduleShard) -> Self?
}

extension CampaignOptions {
    /// `nil`: a campaign of these options goes whole to one shard.
    func splittingSchedules(_ shard: ScheduleShard) -> Self? { nil }
}
