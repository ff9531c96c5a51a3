import Synchronization

/// One search under the deterministic scheduler for a schedule whose execution fails the way
/// ``matches`` accepts: ``body`` explored as the scenario ``scenario``, strategy after
/// strategy (``EscalationOptions/strategies``), each with its share of the budget.
///
/// An execution that fails otherwise is another failure, noted on the way (at most
/// ``otherFailuresKept``), and a randomized strategy goes on with a new seed; a failure that
/// shows code outside the seam ends the search. The schedule found is reported as found, not
/// shrunk: shrinking re-runs hundreds of schedules, and an async one that deadlocks costs
/// half a second each, which made one search take 20 s.
struct EscalationSearch: Sendable {
    /// The scenario's name: the found failure's token fits it.
    let scenario: String
    /// The code of the generated scenario explored (``ReplayToken/generatedScenario``), or
    /// `nil` for a scenario written by hand.
    var generatedScenario: String?
    let options: EscalationOptions
    /// The body explored; it fails an execution when it reaches what is searched for.
    let body: @Sendable (Scenario) throws -> Void
    /// Whether an execution that failed for this reason reached what is searched for.
    let matches: @Sendable (ExecutionFailure) -> Bool
    /// What a crash of the search prints (the report's words).
    let wording: ExplorationWording

    /// How many other failures a search keeps for its report.
    static var otherFailuresKept: Int { 3 }

    /// Runs the search with a budget of `budget` schedules; `others` counts the executions
    /// that returned another forbidden outcome, which ranks the likely causes of a search
    /// that finds nothing.
    func run(budget: Int, others otherForbidden: EscalationTally) -> EscalationResult {
        let seed = options.seed ?? UInt64(ReplayToken.hash(scenario))
        let strategies = options.strategies
        var spent = 0
        var others: [HarnessFailure] = []
        for (index, strategy) in strategies.enumerated() {
            var remaining = budget / strategies.count + (index < budget % strategies.count ? 1 : 0)
            var round: UInt64 = 0
            while remaining > 0 {
                let exploration = ExplorationOptions(
                    strategy: strategy,
                    schedules: remaining,
                    seed: seed &+ round,
                    maxSteps: options.maxSteps,
                    stallTimeout: options.stallTimeout
                )
                var explorer = Explorer(
                    scenario: scenario, options: exploration, body: body, testID: Harness.currentTestID,
                    wording: wording)
                explorer.generatedScenario = generatedScenario
                explorer.shrinksSchedules = false
                let report = explorer.run()
                spent += report.schedulesRun
                remaining -= report.schedulesRun
                guard let failure = report.failure else { break }
                if matches(failure.reason) {
                    return .found(failure, strategy: strategy, schedulesRun: spent)
                }
                if failure.reason.showsCodeOutsideTheSeam {
                    others.append(failure)
                    return Self.notFound(spent, others, otherForbidden)
                }
                if !others.contains(where: { $0.reason == failure.reason }), others.count < Self.otherFailuresKept {
                    others.append(failure)
                }
                // Exhaustive search finds the same failure first whatever the seed.
                if case .exhaustive = strategy.kind { break }
                round += 1
            }
        }
        return Self.notFound(spent, others, otherForbidden)
    }

    private static func notFound(_ schedulesRun: Int, _ others: [HarnessFailure], _ otherForbidden: EscalationTally)
        -> EscalationResult
    {
        let reached = otherForbidden.count
        return .notFound(
            schedulesRun: schedulesRun,
            otherFailures: others,
            otherForbiddenReached: reached,
            likelyCauses: LikelyCause.ranked(others, otherForbiddenReached: reached)
        )
    }
}

/// Counts the executions of a search that returned a forbidden outcome other than the one
/// searched for.
final class EscalationTally: Sendable {
    private let value = Atomic(0)

    /// Counts one more.
    func add() { value.wrappingAdd(1, ordering: .relaxed) }

    /// How many were counted.
    var count: Int { value.load(ordering: .relaxed) }
}
