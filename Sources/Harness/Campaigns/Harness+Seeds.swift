extension Harness {
    /// The seeds a campaign parameterized over seeds runs, so its test and scenario names
    /// say the seed actually used: the seed of the token in `HARNESS_REPLAY`, so the replay
    /// finds its case; else the seed `HARNESS_SEED` names (`random` is drawn once per test
    /// run); else `defaults`. An unreadable value leaves `defaults`, and the exploration
    /// reports it.
    public static func seeds(default defaults: [UInt64]) -> [UInt64] {
        let environment = EnvironmentSnapshot.current()
        if let token = replayToken(in: environment) { return [token.seed] }
        if let text = environment[.seed], let seed = try? HarnessEnvironment.seed(parsing: text) {
            return [seed]
        }
        return defaults
    }

    /// The strategies a campaign parameterized over strategies runs: the strategy of the
    /// token in `HARNESS_REPLAY`; else the one `HARNESS_STRATEGY` names; else `defaults`.
    public static func strategies(default defaults: [Strategy]) -> [Strategy] {
        let environment = EnvironmentSnapshot.current()
        if let token = replayToken(in: environment), let strategy = try? Strategy(tag: token.strategy) {
            return [strategy]
        }
        if let text = environment[.strategy], let strategy = try? Strategy(parsing: text) {
            return [strategy]
        }
        return defaults
    }

    /// The token in `HARNESS_REPLAY`, when it holds one that can be read.
    private static func replayToken(in environment: EnvironmentSnapshot) -> ReplayToken? {
        environment[.replay].flatMap { try? ReplayToken(parsing: $0) }
    }
}
