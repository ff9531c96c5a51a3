import Fixtures
import Harness
import Primitives

/// How soon each strategy finds the project's mutants and a few deep bugs, in the same
/// number of schedules: the evidence a strategy must give before it joins the portfolio.
public enum StrategyComparison {
    /// A scenario with a bug, and the schedules each strategy gets to find it.
    public struct Case: Sendable {
        public let name: String
        public let budget: Int
        /// Whether the bug needs several events each in a narrow window (deep).
        public let isDeep: Bool
        let body: @Sendable (Scenario) -> Void
    }

    /// The strategies compared: the blind ones and the guided one.
    public static let strategies: [Strategy] = [.random, .pct(depth: 3), .pos, .surw, .guided]

    /// Every mutant of the release gate (``Mutant/all``) with twice its gate's budget, and
    /// the deep windows of ``window(reads:stores:)`` with 2,000 schedules.
    public static var cases: [Case] {
        Mutant.all.map { mutant in
            Case(name: mutant.description, budget: 2 * mutant.budget, isDeep: false, body: mutant.scenario)
        } + [
            Case(
                name: "deep: one read in a window of 1 among 24 stores", budget: 2_000, isDeep: true,
                body: window(reads: 1, stores: 24)),
            Case(
                name: "deep: two reads in consecutive windows among 16 stores", budget: 2_000, isDeep: true,
                body: window(reads: 2, stores: 16))
        ]
    }

    /// For each seed, the schedules `strategy` ran until `scenario` first failed, or `nil`
    /// when it did not within the case's budget.
    public static func firstFailures(_ scenario: Case, strategy: Strategy, seeds: Range<UInt64>) -> [Int?] {
        seeds.map { seed in
            let options = ExplorationOptions(strategy: strategy, schedules: scenario.budget, seed: seed)
            do {
                let report = try Harness.run(scenario.name, options: options, scenario.body)
                return report.failure.map { $0.token.execution + 1 }
            } catch {
                preconditionFailure("the harness refused the comparison scenario '\(scenario.name)': \(error)")
            }
        }
    }

    /// A writer stores 1 to `stores` in a cell, one store a step; `reads` readers, each one
    /// load, fail the execution when reader `i` read exactly `stores / 2 + i`: every read
    /// must land between two particular stores, in order (a bug of depth `reads + 1`).
    static func window(reads: Int, stores: Int) -> @Sendable (Scenario) -> Void {
        { scenario in
            let cell = SeamAtomic(0)
            let seen = (0..<reads).map { _ in SeamAtomic(-1) }
            scenario.spawn {
                for value in 1...stores { cell.store(value) }
            }
            for reader in 0..<reads {
                scenario.spawn { seen[reader].store(cell.load()) }
            }
            scenario.joinAll()
            let hit = seen.indices.allSatisfy { seen[$0].load() == stores / 2 + $0 }
            Harness.check(!hit, "every read landed in its window")
        }
    }
}
