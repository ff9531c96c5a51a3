/// The smallest failing scenario a ``LinearizabilityTest`` found: the scenario as a table
/// with each call's result, why it fails, its schedule, and the one token that replays
/// scenario and schedule together. Its wording is in `GeneratedScenarioFailure+Text.swift`.
public struct GeneratedScenarioFailure: Sendable {
    /// The test's name (the scenario names start with it).
    public let test: String
    /// The code that makes the scenario again: its seed and shrink path
    /// (``ReplayToken/generatedScenario``).
    public let scenarioCode: String
    /// The scenario, with what each call returned in the failing execution.
    public let table: ScenarioTable
    /// The scenario's shape: `2 threads, 3 calls (1 initial, 2 parallel, 0 final)`.
    public let shape: String
    /// The shape of the scenario as generated, before shrinking.
    public let generatedShape: String
    /// Shrink steps taken: candidates that failed the same way and replaced the scenario.
    public let shrinkSteps: Int
    /// Shrink candidates explored.
    public let candidatesExplored: Int
    /// Whether the failure was found by replaying a token rather than by generating.
    public let replayed: Bool
    /// The failing execution: its reason, its schedule, and the token.
    public let failure: HarnessFailure

    /// The token that replays scenario and schedule together.
    public var token: ReplayToken { failure.token }
}
