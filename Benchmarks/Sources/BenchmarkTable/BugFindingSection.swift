import Fixtures
import Harness
import Workloads

/// How many schedules the randomized strategies need to find bugs: for each of the
/// ``BugPattern``s and each of the project's mutants, the median schedules to the first
/// failure over many seeds (a seed that finds nothing within the budget counts as more than
/// the budget), and how many seeds found it. The counts are deterministic for a build, so two
/// builds (before and after a change to a strategy) compare run against run.
struct BugFindingSection {
    /// Seeds per bug pattern.
    var seeds = 1_000
    /// Seeds per mutant: mutants run real primitives and cost more a schedule.
    var mutantSeeds = 50
    /// Schedules one seed may run.
    var budget = 1_000
    /// The strategies compared.
    var strategies: [Strategy] = [.pct(), .pct(depth: 2), .random]

    /// The goal of issue 22 for PCT on the lost update.
    static let lostUpdateTarget = 3

    func run(into table: inout Table, log: (String) -> Void) {
        let patterns = BugPattern.allCases.map { ("\($0)", $0.body, seeds, $0 == .lostUpdate) }
        let mutants = Mutant.all.map { ($0.description, $0.scenario, mutantSeeds, false) }
        for strategy in strategies {
            table.startGroup("Schedules to the first failure under \(strategy) (budget \(budget))")
            for (name, body, seeds, isLostUpdate) in patterns + mutants {
                log("first failures of \(name) under \(strategy)")
                let found = HarnessWorkloads.schedulesToFirstFailure(
                    of: name,
                    body,
                    strategy: strategy,
                    seeds: 0..<UInt64(seeds),
                    budget: budget
                )
                let isTargeted = isLostUpdate && strategy == .pct()
                table.add(
                    Table.firstFailureRow(
                        name,
                        found: found,
                        budget: budget,
                        target: isTargeted ? (Self.lostUpdateTarget, "≤ \(Self.lostUpdateTarget)") : nil
                    ))
            }
        }
    }
}
