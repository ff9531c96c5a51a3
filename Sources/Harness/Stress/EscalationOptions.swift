/// How a stress run searches the deterministic scheduler for a schedule that ends in a
/// forbidden outcome it saw: which strategies, how many schedules in all, from which seed.
public struct EscalationOptions: Sendable, RangedOptions {
    /// The strategies to search with, one after another; the budget is shared evenly among
    /// them.
    public var strategies: [Strategy]
    /// Schedules to run at most, across all strategies and forbidden outcomes searched for.
    public var schedules: Int
    /// The search's seed; `nil` derives a stable one from the test's name.
    public var seed: UInt64?
    /// Steps one execution may take (see ``ExplorationOptions/maxSteps``).
    public var maxSteps: Int
    /// How long a thread may run without reaching a scheduling point before the execution
    /// fails as stalled (see ``ExplorationOptions/stallTimeout``). A stall ends the search:
    /// the scenario runs code the harness cannot schedule.
    public var stallTimeout: Duration
    /// How many of the run's distinct forbidden outcomes are searched for, in the order they
    /// were first seen.
    public var maxTargets: Int

    /// The strategies a search uses unless told otherwise: half the budget to the portfolio
    /// (random walk, PCT, POS and SURW in turn), half to bounded exhaustive search, which
    /// covers a small scenario's schedules with up to two preemptions cheapest first.
    public static let defaultStrategies: [Strategy] = [.portfolio, .exhaustive(preemptionBound: 2)]

    /// Options with the given budget and strategies, and defaults for the rest.
    public init(
        strategies: [Strategy] = EscalationOptions.defaultStrategies,
        schedules: Int = 3_000,
        seed: UInt64? = nil,
        maxSteps: Int = 20_000,
        stallTimeout: Duration = .seconds(5),
        maxTargets: Int = 3
    ) {
        self.strategies = strategies
        self.schedules = schedules
        self.seed = seed
        self.maxSteps = maxSteps
        self.stallTimeout = stallTimeout
        self.maxTargets = maxTargets
        preconditionValid()
    }

    /// The ranges every number of the options must lie in.
    public enum Limits {
        /// Schedules per search.
        public static let schedules: ClosedRange<Int> = 1...1_000_000_000
        /// Strategies per search.
        public static let strategies: ClosedRange<Int> = 1...64
        /// Forbidden outcomes searched for per run.
        public static let maxTargets: ClosedRange<Int> = 1...100
    }

    /// Throws an error naming the first setting outside its range; the step bound and the
    /// stall timeout have the ranges of ``ExplorationOptions/Limits``.
    public func validate() throws(HarnessConfigurationError) {
        try RangedSetting.check(schedules, in: Limits.schedules, "EscalationOptions.schedules")
        try RangedSetting.check(strategies.count, in: Limits.strategies, "EscalationOptions.strategies.count")
        try RangedSetting.check(maxSteps, in: ExplorationOptions.Limits.maxSteps, "EscalationOptions.maxSteps")
        try RangedSetting.check(
            stallTimeout.seconds,
            in: ExplorationOptions.Limits.stallTimeoutSeconds,
            "EscalationOptions.stallTimeout",
            unit: "seconds"
        )
        try RangedSetting.check(maxTargets, in: Limits.maxTargets, "EscalationOptions.maxTargets")
    }
}
