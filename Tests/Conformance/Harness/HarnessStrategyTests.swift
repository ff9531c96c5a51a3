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

    @Test("an actor-reentrancy overdraft is found", arguments: strategies)
    func actorReentrancy(strategy: Strategy) throws {
        let report = try Harness.run("overdraft", options: Self.options(strategy), AsyncBugScenarios.overdraft(rechecks: false))
        let failure = try #require(report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect("\(failure.reason)".contains("overdrawn: its balance is -60"))
    }

    @Test("the account that re-checks after its await is never overdrawn", arguments: strategies)
    func actorRechecks(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run("no overdraft", options: options, AsyncBugScenarios.overdraft(rechecks: true))
        #expect(report.failure == nil)
    }

    @Test("a reply racing a timeout that resumes a continuation twice is found, under process isolation", arguments: strategies)
    func replyRacingTimeout(strategy: Strategy) throws {
        var options = Self.options(strategy)
        options.isolation = .process
        let report = try Harness.run("reply racing timeout", options: options, AsyncBugScenarios.replyRacingTimeout(claimsAtomically: false))
        let failure = try #require(report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect("\(failure.reason)".contains("SWIFT TASK CONTINUATION MISUSE"), "\(failure.reason)")
    }

    @Test("claiming the continuation atomically resumes it once", arguments: strategies)
    func replyClaimedOnce(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run("reply claimed once", options: options, AsyncBugScenarios.replyRacingTimeout(claimsAtomically: true))
        #expect(report.failure == nil)
    }
}

@Suite("Harness: timeouts that race progress")
struct HarnessTimeoutRaceTests {
    @Test("with timeoutsRaceProgress, every strategy lets a timeout fire while the server still works", arguments: HarnessStrategyTests.strategies)
    func timeoutBeatsWork(strategy: Strategy) throws {
        var options = HarnessStrategyTests.options(strategy)
        options.timeoutsRaceProgress = true
        let report = try Harness.run("timeout races work", options: options, AsyncBugScenarios.slowServerRacingTimeout)
        let failure = try #require(report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect("\(failure.reason)".contains("the reply lost its race"))
        #expect(failure.trace.contains { $0.kind == .advanceClock })
        let replayed = try #require(try Harness.run("timeout races work", options: ExplorationOptions(replay: failure.token), AsyncBugScenarios.slowServerRacingTimeout).failure)
        #expect(replayed.trace == failure.trace)
    }

    @Test("without it, the clock moves only when nothing else can run, so the server always wins")
    func clockWaitsForWork() throws {
        let options = ExplorationOptions(strategy: .exhaustive(preemptionBound: 2), schedules: 2_000)
        let report = try Harness.run("timeout after work", options: options, AsyncBugScenarios.slowServerRacingTimeout)
        #expect(report.failure == nil && report.exhausted)
    }
}

@Suite("Harness: an async failure reads as the user's tasks")
struct HarnessTaskReportTests {
    @Test("the overdraft's report shows the tasks as lanes, no line of the harness's files, in 30 lines")
    func overdraftReport() throws {
        let report = try Harness.run("overdraft report", options: ExplorationOptions(schedules: 500, seed: 3), AsyncBugScenarios.overdraft(rechecks: false))
        let failure = try #require(report.failure)
        let lines = failure.message.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 30, "\(failure.message)")
        #expect(!failure.message.contains("AsyncServices.swift") && !failure.message.contains("Harness/"), "\(failure.message)")
        let header = try #require(lines.first { $0.hasPrefix("step ") })
        #expect(header.contains("task 1 AsyncBugScenarios.swift:43") && header.contains("task 2 AsyncBugScenarios.swift:43"), "\(header)")
        #expect(!header.contains("T1") && !header.contains("T2"), "executor lanes are not lanes of the report: \(header)")
        #expect(failure.message.contains("resumes") && failure.message.contains("suspends"))
    }
}
