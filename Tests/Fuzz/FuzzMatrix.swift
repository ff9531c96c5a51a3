import Harness
import Testing

/// The strategies and seeds every fuzz suite runs over: the portfolio (random walk, PCT, POS
/// and SURW in turn) and exhaustive search, with two seeds. The budget of each exploration
/// is ``schedules(_:)`` unless `HARNESS_SCHEDULES` says otherwise; `HARNESS_STRATEGY` and
/// `HARNESS_SEED` narrow a campaign to one strategy or seed, and a token in
/// `HARNESS_REPLAY` to the case that recorded it, so test and scenario names say what ran.
enum FuzzMatrix {
    static let strategies = Harness.strategies(default: [.portfolio, .exhaustive(preemptionBound: 2)])
    static let seeds = Harness.seeds(default: [1, 2])

    /// 150 schedules a strategy: 600 for the portfolio, whose four members take turns.
    static func schedules(_ strategy: Strategy) -> Int {
        strategy == .portfolio ? 600 : 150
    }

    /// Every strategy with every seed.
    static var cases: [(Strategy, UInt64)] {
        strategies.flatMap { strategy in seeds.map { (strategy, $0) } }
    }

    /// The campaign's options. The primitives tell threads apart only through the seam
    /// (`SeamThread.isCurrent`, `ThreadLocalValue`), so their threads run as coroutines;
    /// `HARNESS_THREADS=os` runs them on OS threads.
    static func options(_ strategy: Strategy, _ seed: UInt64) -> ExplorationOptions {
        ExplorationOptions(
            strategy: strategy, schedules: schedules(strategy), seed: seed, isolation: .process, threads: .coroutines)
    }

    /// A scenario name that tells the cases of a parameterized test apart, so a replay
    /// token fits exactly one.
    static func name(_ scenario: String, _ strategy: Strategy, _ seed: UInt64) -> String {
        "\(scenario) [\(strategy), seed \(seed)]"
    }

    /// Explores `body` as the case (`strategy`, `seed`) of the scenario `scenario`,
    /// recording a failure at the caller's line.
    static func explore(
        _ scenario: String,
        _ strategy: Strategy,
        _ seed: UInt64,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) {
        Harness.explore(
            name(scenario, strategy, seed), options: options(strategy, seed), sourceLocation: sourceLocation, body)
    }
}

extension FuzzMatrix {
    /// The cases of a generated-scenario suite: the portfolio with both seeds. Exhaustive
    /// search covers too little of a generated scenario's schedules within the fuzz
    /// campaign's budget to be worth its share; `HARNESS_STRATEGY` picks another strategy.
    static let generatedCases: [(Strategy, UInt64)] = Harness.strategies(default: [.portfolio]).flatMap { strategy in
        seeds.map { (strategy, $0) }
    }

    /// The options of a generated-scenario suite's case: 8 scenarios of the default shape,
    /// each explored with 100 schedules, unless `HARNESS_SCENARIOS` and
    /// `HARNESS_SCENARIO_SCHEDULES` say otherwise.
    static func generated(_ strategy: Strategy, _ seed: UInt64) -> LinearizabilityOptions {
        LinearizabilityOptions(scenarios: 8, schedulesPerScenario: 100, strategy: strategy, seed: seed)
    }

    /// Runs the generated scenarios of `test` as the case (`strategy`, `seed`) of the suite
    /// `name`, recording a failure at the caller's line.
    static func check<Subject, Model>(
        _ name: String,
        _ strategy: Strategy,
        _ seed: UInt64,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ test: LinearizabilityTest<Subject, Model>
    ) {
        test.check(self.name(name, strategy, seed), options: generated(strategy, seed), sourceLocation: sourceLocation)
    }
}
