/// What a ``LinearizabilityTest`` found.
public struct LinearizabilityTestReport: Sendable {
    /// The test's name.
    public let test: String
    /// The strategy each scenario was explored with.
    public let strategy: Strategy
    /// The campaign's seed, from which each scenario's seed derives.
    public let seed: UInt64
    /// How many scenarios were generated and explored (shrink candidates not counted).
    public let scenariosRun: Int
    /// How many schedules ran, shrink candidates' included.
    public let schedulesRun: Int
    /// The smallest failing scenario, if a scenario failed; generation stops at the first.
    public let failure: GeneratedScenarioFailure?
    /// When the test replayed a token: that its failure did not happen again, and how far
    /// the code followed the token. `nil` when it did, or when nothing was replayed.
    public let notReproduced: FailureNotReproduced?
    /// The shapes of operation sequences the generated scenarios held, and whether the last
    /// scenarios still brought new ones (the budget looks marginal then). Zero shapes when
    /// the test replayed a token.
    public let sequenceCoverage: SequenceCoverage
    /// The wall time the test took.
    public let elapsed: Duration
    /// What each exploration reported, shrink candidates' included: the summary adds them up.
    let explorations: [ExplorationReport]

    /// That an exploration of the test asked for coroutines and went on on OS threads (the
    /// first that did; ``ExplorationReport/osThreadFallback``); `nil` when none did.
    public var osThreadFallback: OSThreadFallback? { explorations.lazy.compactMap(\.osThreadFallback).first }
}
