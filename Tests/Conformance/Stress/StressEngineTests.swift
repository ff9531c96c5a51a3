import Fixtures
@testable import Harness
import Primitives
import Testing

@Suite("Stress: the engine counts outcomes and escalates forbidden ones")
struct StressEngineTests {
    /// Options for a short run without escalation.
    private static func options(iterations: Int = 1_000_000, seconds: Double? = 0.3, threads: Int = 2) -> StressOptions
    {
        StressOptions(
            iterations: iterations, timeBudget: seconds.map { .seconds($0) }, threads: threads, escalation: nil)
    }

    @Test("a run counts every iteration once, across its threads, and stops at its iterations")
    func countsIterations() async throws {
        let report = try await Harness.runStress(
            "locked increments", options: Self.options(iterations: 300, seconds: nil, threads: 3),
            StressScenarios.lockedIncrements)
        #expect(report.passed)
        #expect(report.stop == .iterations)
        #expect(report.iterations == 300)
        #expect(report.count(of: .returned(15)) == 300)
        #expect(report.histogram.map(\.verdict) == [.acceptable])
        #expect(report.escalations.isEmpty)
    }

    @Test("a run stops at its time budget")
    func stopsAtTimeBudget() async throws {
        let report = try await Harness.runStress(
            "locked increments", options: Self.options(seconds: 0.2), StressScenarios.lockedIncrements)
        #expect(report.stop == .timeBudget)
        #expect(report.elapsed >= .milliseconds(200) && report.elapsed < .seconds(5))
        #expect(report.iterations > 0)
    }

    @Test("spawned threads start together, once the root thread has spawned them all")
    func startGate() async throws {
        let report = try await Harness.runStress(
            "start gate", options: Self.options(iterations: 200, seconds: nil), StressScenarios.startsBehindTheGate)
        #expect(report.passed, "\(report.text)")
    }

    @Test("an outcome the table calls interesting is counted on its own row and fails nothing")
    func interestingOutcome() async throws {
        let test = StressTest<Int>(outcomes: [.interesting(7, meaning: "seven")]) { _ in 7 }
        let report = try await Harness.runStress(
            "interesting", options: Self.options(iterations: 20, seconds: nil), test)
        #expect(report.passed)
        #expect(report.interesting.map(\.outcome) == [.returned(7)])
        #expect(report.interesting.first?.meaning == "seven")
    }

    @Test("a returned forbidden outcome is escalated, and its token replays the same failure")
    func returnedOutcomeEscalates() async throws {
        let options = StressOptions(iterations: 200, timeBudget: nil, escalation: EscalationOptions(schedules: 500))
        let test = StressScenarios.alternatelyLostIncrements()
        let report = try await Harness.runStress("lost increments", options: options, test)
        #expect(report.forbidden.map(\.outcome) == [.returned(1)])
        #expect(report.count(of: .returned(1)) == 100 && report.count(of: .returned(2)) == 100)
        let escalation = try #require(report.escalations.first)
        #expect(escalation.target == .returned(1))
        let failure = try #require(escalation.result.failure, "\(report.text)")
        #expect(report.text.contains(failure.replayCommand))

        let replayed = try Harness.replayStress("lost increments", token: failure.token, test)
        let again = try #require(replayed.failure, "replaying \(failure.token) did not fail")
        #expect(again.reason == failure.reason)
        #expect(again.trace == failure.trace)
    }

    @Test("a check failed in a task under stress is a forbidden outcome, escalated to the same check")
    func checkInTask() async throws {
        let report = try await Harness.runStress(
            "check in a task", options: StressOptions(iterations: 50, timeBudget: nil), StressScenarios.checkFailsInTask
        )
        let row = try #require(report.forbidden.first)
        guard case let .checkFailed(message, file, _) = row.outcome else {
            Issue.record("not a failed check: \(row.outcome)")
            return
        }
        #expect(message == "checked from a task")
        #expect(file.hasSuffix("StressScenarios.swift"))
        #expect(row.count == 50)
        let failure = try #require(report.escalations.first?.result.failure, "\(report.text)")
        guard case .invariant(message, _, file, _) = failure.reason else {
            Issue.record("escalated to another failure: \(failure.reason)")
            return
        }
    }

    @Test("an error a thread throws under stress is a forbidden outcome, escalated to the same error")
    func threadThrows() async throws {
        let report = try await Harness.runStress(
            "thread throws", options: StressOptions(iterations: 20, timeBudget: nil), StressScenarios.threadThrows)
        #expect(report.forbidden.map(\.outcome) == [.threw(error: "failed")])
        let failure = try #require(report.escalations.first?.result.failure)
        #expect(failure.reason == .threadThrew(thread: 1, error: "failed"))
    }

    @Test("a history that is not linearizable is a forbidden outcome, escalated to the same failed check")
    func notLinearizable() async throws {
        let options = StressOptions(iterations: 100, timeBudget: nil)
        let report = try await Harness.runStress("split dequeue", options: options, StressScenarios.splitDequeue)
        let escalation = try #require(report.escalations.first, "\(report.text)")
        guard case .checkFailed(let message, _, _) = escalation.target else {
            Issue.record("not a failed check: \(escalation.target)")
            return
        }
        #expect(message.hasPrefix("not linearizable"))
        let failure = try #require(escalation.result.failure, "\(report.text)")
        guard case .invariant(let found, _, _, _) = failure.reason, found.hasPrefix("not linearizable") else {
            Issue.record("escalated to another failure: \(failure.reason)")
            return
        }
    }

    @Test(
        "a hang ends the run, leaves its threads behind, and is escalated to a deadlock",
        .disabled(
            if: RuntimeSanitizer.thread,
            "leaves hung threads behind on purpose, which ThreadSanitizer reports as leaks at exit")
    )
    func hangEscalatesToDeadlock() async throws {
        let options = StressOptions(timeBudget: .seconds(5), threads: 1, hangTimeout: .milliseconds(300))
        let test = StressScenarios.lockOrderInversion
        let report = try await Harness.runStress("lock-order inversion", options: options, test)
        #expect(report.stop == .hang)
        #expect(report.forbidden.map(\.outcome) == [.hung(seconds: 0.3)])
        let failure = try #require(report.escalations.first?.result.failure, "\(report.text)")
        guard case .deadlock = failure.reason else {
            Issue.record("escalated to \(failure.reason), not a deadlock")
            return
        }
    }

    @Test("an outcome no schedule ends in is reported with its likely causes, memory ordering first")
    func notFoundNamesCauses() async throws {
        let options = StressOptions(iterations: 20, timeBudget: nil, escalation: EscalationOptions(schedules: 30))
        let report = try await Harness.runStress(
            "stress only", options: options, StressScenarios.forbiddenOnlyUnderStress)
        let escalation = try #require(report.escalations.first)
        guard case let .notFound(schedulesRun, otherFailures, otherForbiddenReached, likelyCauses) = escalation.result
        else {
            Issue.record("the search did not come back empty: \(report.text)")
            return
        }
        #expect(schedulesRun > 0 && schedulesRun <= 30)
        #expect(otherFailures.isEmpty)
        #expect(otherForbiddenReached == 0)
        #expect(likelyCauses == [.weakMemoryOrdering, .codeOutsideTheSeam, .realTime, .budget])
        #expect(report.text.contains("memory ordering weaker than the model"))
        #expect(report.text.contains("code outside the seam"))
    }

    @Test("a search that reaches other forbidden outcomes but not the one seen names the budget first")
    func otherForbiddenOutcomes() async throws {
        let test = StressTest<Int>(outcomes: [.forbidden(meaning: "any value") { _ in true }]) { scenario in
            scenario.mode == .stress ? 8 : 9
        }
        let options = StressOptions(iterations: 10, timeBudget: nil, escalation: EscalationOptions(schedules: 20))
        let report = try await Harness.runStress("other forbidden", options: options, test)
        guard
            case let .notFound(schedulesRun, _, otherForbiddenReached, likelyCauses) = report.escalations.first?.result
        else {
            Issue.record("the search did not come back empty: \(report.text)")
            return
        }
        #expect(otherForbiddenReached == schedulesRun)
        #expect(likelyCauses.first == .budget)
        #expect(report.text.contains("ended in other forbidden outcomes"))
    }

    @Test(
        "an item dropped when a zero-timeout semaphore wait failed is reached by the escalation, with any strategies",
        arguments: [EscalationOptions.defaultStrategies] + HarnessStrategyTests.strategies.map { [$0] }
    )
    func escalationReachesFailedTry(strategies: [Strategy]) throws {
        let test = HarnessDispatchScenarios.droppingProducerStressTest(countsDrops: true)
        let options = EscalationOptions(strategies: strategies, schedules: 50)
        let search = Escalation(
            name: "dropping producer",
            test: test,
            options: options,
            leakNotSearched: StressReportText.leakNotSearched,
            wording: .forPerson
        )
        let result = search.search(for: [.returned(1)]).first?.result
        guard case .found(let failure, _, let schedulesRun)? = result else {
            Issue.record("no schedule of \(strategies) dropped an item: \(String(describing: result))")
            return
        }
        #expect(schedulesRun <= 50)
        let replayed = try Harness.replayStress("dropping producer", token: failure.token, test)
        #expect(replayed.failure?.trace == failure.trace)
    }

    @Test("a stress run of that producer escalates every forbidden outcome it sees to a schedule that ends in it")
    func droppingProducerUnderStress() async throws {
        let escalation = EscalationOptions(schedules: 50)
        let options = StressOptions(iterations: 200, timeBudget: .seconds(2), escalation: escalation)
        let test = HarnessDispatchScenarios.droppingProducerStressTest(countsDrops: true)
        let report = try await Harness.runStress("dropping producer under stress", options: options, test)
        #expect(report.forbidden.allSatisfy { $0.outcome == .returned(1) }, "\(report.text)")
        for escalation in report.escalations {
            #expect(escalation.result.failure != nil, "\(report.text)")
        }
    }

    @Test("the escalation searches with the strategies it is given")
    func escalationStrategies() async throws {
        let escalation = EscalationOptions(strategies: [.pct(depth: 2)], schedules: 200)
        let options = StressOptions(iterations: 100, timeBudget: nil, escalation: escalation)
        let test = StressScenarios.alternatelyLostIncrements()
        let report = try await Harness.runStress("lost increments by pct", options: options, test)
        guard case .found(_, let strategy, _) = report.escalations.first?.result else {
            Issue.record("no schedule found: \(report.text)")
            return
        }
        #expect(strategy == .pct(depth: 2))
    }
}
