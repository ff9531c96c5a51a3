import Harness
import Primitives
import Testing

/// Every strategy against two classic bugs, each with its fix, on real controlled threads
/// and tasks, with a fixed seed: each bug is found within `budget` schedules, and each fix
/// passes `passingBudget` (a quarter, to keep the gate quick; the bugs fall within 200).
@Suite("Harness: every strategy finds the classic bugs and passes their fixes")
struct HarnessStrategyTests {
    static let strategies: [Strategy] = [.random, .pct(depth: 3), .exhaustive(preemptionBound: 2), .pos, .surw, .portfolio]
    static let budget = 2_000
    static let passingBudget = 500

    static func options(_ strategy: Strategy, schedules: Int = budget) -> ExplorationOptions {
        ExplorationOptions(strategy: strategy, schedules: schedules, seed: 1)
    }

    @Test("a condition wait guarded by `if` instead of `while` is found, through a spurious wake-up", arguments: strategies)
    func unguardedWait(strategy: Strategy) throws {
        let report = try Harness.run("if instead of while", options: Self.options(strategy), HarnessScenarios.conditionWait(recheck: false))
        let failure = try #require(report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect(!report.exhausted)
        #expect(failure.trace.contains { $0.kind == .spuriousWake })
        guard case .invariant(let message, _, _, _) = failure.reason else {
            Issue.record("expected the consumer's check to fail, got \(failure.reason)")
            return
        }
        #expect(message.contains("before the flag was set"))
    }

    @Test("the same wait in a `while` loop passes (and exhaustive search covers it)", arguments: strategies)
    func guardedWait(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run("while around the wait", options: options, HarnessScenarios.conditionWait(recheck: true))
        #expect(report.failure == nil)
        if strategy == .exhaustive(preemptionBound: 2) {
            #expect(report.exhausted && report.schedulesRun < Self.passingBudget)
        } else {
            #expect(!report.exhausted && report.schedulesRun == Self.passingBudget)
        }
    }

    @Test("a lost update between two task-group children is found", arguments: strategies)
    func taskGroupLostUpdate(strategy: Strategy) throws {
        let report = try Harness.run("task group lost update", options: Self.options(strategy), HarnessScenarios.taskGroupIncrements(atomically: false))
        let failure = try #require(report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        guard case .invariant(let message, _, _, _) = failure.reason else {
            Issue.record("expected the counter check to fail, got \(failure.reason)")
            return
        }
        #expect(message.contains("an increment was lost"))
    }

    @Test("the same children adding atomically pass", arguments: strategies)
    func taskGroupAtomicAdds(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run("task group atomic adds", options: options, HarnessScenarios.taskGroupIncrements(atomically: true))
        #expect(report.failure == nil)
        #expect(report.schedulesRun == Self.passingBudget)
    }

    @Test("exhaustive search covers every schedule of the task group within one preemption, job orders included, and says so")
    func taskGroupExhausted() throws {
        let options = ExplorationOptions(strategy: .exhaustive(preemptionBound: 1), schedules: Self.budget)
        let report = try Harness.run("task group atomic adds, bound 1", options: options, HarnessScenarios.taskGroupIncrements(atomically: true))
        #expect(report.failure == nil)
        #expect(report.exhausted && report.schedulesRun < Self.budget)
    }
}
