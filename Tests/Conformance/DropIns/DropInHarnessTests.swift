import Harness
import Primitives
import Testing

/// Every strategy finds the classic bugs written on the drop-ins within the budget, replays
/// each from its token, and passes their fixes.
@Suite("Drop-ins: every strategy finds the lazy-initialization and check-then-act races and passes their fixes")
struct DropInHarnessTests {
    static let strategies = HarnessStrategyTests.strategies
    static let budget = HarnessStrategyTests.budget
    static let passingBudget = HarnessStrategyTests.passingBudget

    static func options(_ strategy: Strategy, schedules: Int = budget) -> ExplorationOptions {
        ExplorationOptions(strategy: strategy, schedules: schedules, seed: 1, keepsFailures: false)
    }

    /// Finds a failure of `scenario` under `strategy`, checks its message, and replays its token.
    func findAndReplay(
        _ name: String,
        _ strategy: Strategy,
        _ scenario: @escaping @Sendable (Scenario) -> Void,
        expecting text: String
    ) throws {
        let report = try Harness.run(name, options: Self.options(strategy), scenario)
        let failure = try #require(
            report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect(report.schedulesRun <= Self.budget)
        #expect("\(failure.reason)".contains(text), "\(failure.reason)")
        let token = try ReplayToken(parsing: failure.token.description)
        let replayed = try Harness.run(name, options: ExplorationOptions(replay: token, keepsFailures: false), scenario)
        #expect(replayed.failure?.trace == failure.trace, "the token did not replay the same schedule")
    }

    @Test(
        "a lazy init on the Mutex and Atomic drop-ins that does not re-check under the lock is found and replayed",
        arguments: strategies)
    func lazyInitializationRace(strategy: Strategy) throws {
        try findAndReplay(
            "lazy init race", strategy, DropInScenarios.lazyInitialization(rechecksUnderLock: false),
            expecting: "initialized 2 times")
    }

    @Test("the lazy initialization that re-checks under the lock passes", arguments: strategies)
    func lazyInitializationFixed(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run(
            "lazy init fixed", options: options, DropInScenarios.lazyInitialization(rechecksUnderLock: true))
        #expect(report.failure == nil)
    }

    @Test("a check-then-act race on a DispatchQueue-protected cache is found and replayed", arguments: strategies)
    func cacheCheckThenAct(strategy: Strategy) throws {
        try findAndReplay(
            "cache check then act", strategy, DropInScenarios.cacheCheckThenAct(atOnce: false),
            expecting: "computed \"answer\" 2 times")
    }

    @Test("the cache that checks and inserts in one barrier block passes", arguments: strategies)
    func cacheAtOnce(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run(
            "cache check and act at once", options: options, DropInScenarios.cacheCheckThenAct(atOnce: true))
        #expect(report.failure == nil)
    }
}
