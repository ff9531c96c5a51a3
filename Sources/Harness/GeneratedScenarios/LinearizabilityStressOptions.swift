/// How a ``LinearizabilityTest`` runs under stress: how long and how wide (``stress``, with
/// its escalation), and the scenarios it generates (``scenarios``: their shape, the seed they
/// derive from, the checker). Every iteration runs a scenario of its own, drawn from the seed
/// and the iteration's number, so a violation stress saw is searched for in that scenario.
public struct LinearizabilityStressOptions: Sendable, CampaignOptions {
    /// The stress run: iterations, time budget (and its cap), threads, hang timeout, escalation.
    public var stress: StressOptions
    /// The scenarios' shape, their seed (``ExplorationOptions/seed``; `nil` derives one from
    /// the test's name) and the checker. A replay of an escalation's token must use the same
    /// shape: it makes the scenario again from its code.
    public var scenarios: LinearizabilityOptions

    /// Options of `stress` over scenarios shaped by `scenarios`.
    public init(stress: StressOptions = StressOptions(), scenarios: LinearizabilityOptions = LinearizabilityOptions()) {
        self.stress = stress
        self.scenarios = scenarios
    }

    /// These options with whatever the environment sets overriding them: the stress knobs
    /// (``StressOptions/applyingEnvironment(_:)``) and those of generated scenarios
    /// (``LinearizabilityOptions/applyingEnvironment(_:)``: the seed and a replay token).
    public func applyingEnvironment(
        _ environment: [String: String]
    ) throws(HarnessConfigurationError) -> LinearizabilityStressOptions {
        LinearizabilityStressOptions(
            stress: try stress.applyingEnvironment(environment),
            scenarios: try scenarios.applyingEnvironment(environment))
    }

    /// The token a replay follows: the scenarios'.
    var replayToken: ReplayToken? { scenarios.replayToken }

    /// Throws an error naming the first setting outside its range.
    public func validate() throws(HarnessConfigurationError) {
        try stress.validate()
        try scenarios.validate()
    }
}
