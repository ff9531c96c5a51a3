@testable import Harness
import Testing

/// A ``LinearizabilityTest`` under stress: generated scenarios on real threads, one row per
/// kind of outcome, each violation escalated to a schedule of the same kind in the scenario
/// that showed it, whose token replays through the test's own replay path. Where the race
/// is left to the real threads, the tests assert only what follows from what stress saw.
@Suite("Generated scenarios under stress: rows by kind, escalation to that kind, a short report", .serialized)
struct LinearizabilityTestStressTests {
    private static let overbooked = StressOutcome<LinearizabilityOutcome>.returned(
        .violation(HistoryViolation(kind: .notLinearizable, operations: ["reserve()"])))

    /// A run of `iterations` over scenarios of two calls, escalated with `schedules`.
    private static func twoCalls(iterations: Int, schedules: Int) -> LinearizabilityStressOptions {
        LinearizabilityStressOptions(
            stress: StressOptions(
                iterations: iterations, timeBudget: nil, escalation: EscalationOptions(schedules: schedules)),
            scenarios: BoxOffices.twoCalls)
    }

    /// Replays `failure`'s token through ``LinearizabilityTest/run(_:options:)`` with the
    /// scenario options `scenarios`, and expects it to fail identically.
    private static func expectReplaysIdentically<Subject, Model>(
        _ failure: HarnessFailure,
        _ test: LinearizabilityTest<Subject, Model>,
        name: String,
        scenarios: LinearizabilityOptions
    ) throws {
        var replaying = scenarios
        replaying.exploration.replay = failure.token
        let replayed = try #require(try test.run(name, options: replaying).failure)
        #expect(replayed.failure.reason == failure.reason)
        #expect(replayed.failure.trace == failure.trace)
        #expect(replayed.replayed)
    }

    @Test("every iteration overbooks: one row for all of them, escalated to a token that replays it identically")
    func certainRaceIsOneRowAndReplays() async throws {
        let test = BoxOffices.overbooking()
        let options = Self.twoCalls(iterations: 60, schedules: 200)
        let report = try await test.runStress("box office", options: options)
        #expect(report.histogram.map(\.outcome) == [Self.overbooked])
        #expect(report.count(of: Self.overbooked) == 60)
        #expect(report.histogram.first?.verdict == .forbidden)
        let escalation = try #require(report.escalations.first)
        #expect(escalation.target == Self.overbooked)
        let failure = try #require(escalation.result.failure)
        #expect(failure.token.generatedScenario != nil)
        #expect(failure.scenario.hasPrefix("box office [scenario "))
        try Self.expectReplaysIdentically(failure, test, name: "box office", scenarios: BoxOffices.twoCalls)
        let lines = report.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= LinearizabilityStressText.maxLines)
        #expect(report.text.contains(failure.replayCommand))
        #expect(report.text.contains("not linearizable: reserve()"))
    }

    @Test("with a seat for each, the same race is linearizable: one acceptable row, nothing escalated")
    func linearizableRow() async throws {
        let test = BoxOffices.test(capacity: 2, operations: [.reserve]) {
            BoxOffice(capacity: 2, betweenCheckAndAct: Rendezvous().arrive)
        }
        let options = LinearizabilityStressOptions(
            stress: StressOptions(iterations: 40, timeBudget: nil), scenarios: BoxOffices.twoCalls)
        let report = try await test.runStress("box office with room", options: options)
        #expect(report.histogram.map(\.outcome) == [.returned(.linearizable)])
        #expect(report.histogram.map(\.verdict) == [.acceptable])
        #expect(report.passed)
        #expect(report.escalations.isEmpty)
    }

    @Test("the escalation searches for the kind stress saw, not any violation, in the scenario that showed it")
    func escalationSearchesTheKind() throws {
        let test = BoxOffices.test(capacity: 1, operations: [.reserve]) { BoxOffice(capacity: 1) }
        let scenarios = BoxOffices.twoCalls
        let seed = LinearizabilityTest<BoxOffice, BoxOfficeModel>.stressSeed("box office race", options: scenarios)
        let never = StressOutcome<LinearizabilityOutcome>.returned(
            .violation(HistoryViolation(kind: .notLinearizable, operations: ["available()"])))
        let rows = [Self.overbooked, never].map {
            StressHistogramRow(outcome: $0, count: 1, verdict: .forbidden, meaning: "", firstIteration: 5)
        }
        let escalation = test.stressEscalation(
            "box office race", options: EscalationOptions(schedules: 400), scenarios: scenarios, seed: seed,
            rows: rows, leakNotSearched: "", wording: .forPerson)
        let results = escalation.search(for: [Self.overbooked, never])
        let found = try #require(results.first?.result.failure)
        let code = LinearizabilityTest<BoxOffice, BoxOfficeModel>.stressScenario(5, seed: seed)
        #expect(found.token.generatedScenario == code.description)
        guard case .historyRejected(.verdict(.notLinearizable, _), _) = found.reason else {
            Issue.record("the search found \(found.reason)")
            return
        }
        try Self.expectReplaysIdentically(found, test, name: "box office race", scenarios: scenarios)
        guard case .notFound(_, _, let otherForbidden, _) = results.last?.result else {
            Issue.record("a kind no history of the scenario has was found: \(String(describing: results.last))")
            return
        }
        #expect(otherForbidden > 0, "the overbooking histories the search met count as other forbidden outcomes")
    }

    @Test("a racy box office left to the real threads: rows, escalations and replays agree with what stress saw")
    func realRace() async throws {
        let test = BoxOffices.test(capacity: 2) { BoxOffice(capacity: 2) }
        let scenarios = LinearizabilityOptions(seed: 11)
        let options = LinearizabilityStressOptions(
            stress: StressOptions(
                timeBudget: .milliseconds(300), maxTimeBudget: .seconds(1),
                escalation: EscalationOptions(schedules: 300)),
            scenarios: scenarios)
        let report = try await test.runStress("racy box office", options: options)
        let kinds: Set<String> = ["reserve()", "cancel()", "available()"]
        for row in report.histogram {
            switch row.outcome {
            case .returned(.linearizable):
                #expect(row.verdict == .acceptable)
            case .returned(.violation(let violation)):
                #expect(row.verdict == .forbidden)
                #expect(Set(violation.operations).isSubset(of: kinds))
            default:
                Issue.record("an outcome other than a verdict: \(row.outcome)")
            }
        }
        #expect(Set(report.histogram.map(\.outcome)).count == report.histogram.count)
        for escalation in report.escalations {
            #expect(report.forbidden.map(\.outcome).contains(escalation.target))
            if let failure = escalation.result.failure {
                try Self.expectReplaysIdentically(failure, test, name: "racy box office", scenarios: scenarios)
            }
        }
        #expect([.timeBudget, .timeCap].contains(report.stop))
        #expect(report.text.split(separator: "\n", omittingEmptySubsequences: false).count <= 40)
    }

    @Test("the front door records a violation as one issue and replays the escalation's token from HARNESS_REPLAY")
    func frontDoor() async throws {
        let test = BoxOffices.overbooking()
        let options = Self.twoCalls(iterations: 20, schedules: 100)
        func campaign(_ variables: [String: String]) -> Campaign {
            Campaign(
                "front door", .stress, sourceLocation: #_sourceLocation, environment: EnvironmentSnapshot(variables),
                run: RunState())
        }
        var report: StressReport<LinearizabilityOutcome>?
        await withKnownIssue {
            report = await campaign([:]).stress(test, options)
        } matching: { issue in
            "\(issue)".contains("not linearizable: reserve()")
        }
        let token = try #require(report?.escalations.first?.result.failure?.token)
        await withKnownIssue {
            #expect(await campaign([Knob.replay.name: token.description]).stress(test, options) == nil)
        } matching: { issue in
            "\(issue)".contains("reproduced from its token")
        }
    }

    @Test("a call that throws what the model cannot hold is the iteration's error under stress, escalated to that call")
    func foreignErrorUnderStress() async throws {
        let test = boundedStackTest(throwsUnexpected: true)
        let scenarios = LinearizabilityOptions(seed: 5)
        let options = LinearizabilityStressOptions(
            stress: StressOptions(iterations: 40, timeBudget: nil, escalation: EscalationOptions(schedules: 100)),
            scenarios: scenarios)
        let report = try await test.runStress("unexpected error", options: options)
        let threw = StressOutcome<LinearizabilityOutcome>.threw(error: "unexpected")
        #expect(report.forbidden.map(\.outcome) == [threw])
        let escalation = try #require(report.escalations.first)
        #expect(escalation.target == threw)
        let found = try #require(escalation.result.failure)
        guard case .historyRejected(.foreignError(let call, "unexpected", "StackError"), _) = found.reason else {
            Issue.record("the search found \(found.reason)")
            return
        }
        #expect(call == "push(3)")
        try Self.expectReplaysIdentically(found, test, name: "unexpected error", scenarios: scenarios)
    }

    /// Scenarios of one client making `calls` calls after `initial` calls alone, and nothing after.
    private static func oneClient(initial: Int, calls: ClosedRange<Int>) -> LinearizabilityOptions {
        LinearizabilityOptions(
            seed: 3, threads: 1...1, operationsPerThread: calls, initialOperations: initial...initial,
            finalOperations: 0...0)
    }

    @Test("a take that no put can wake while the queue holds one is a lost wake-up, not a hang: escalated, replayed")
    func lostWakeUpUnderStress() async throws {
        let test = nextPutQueueTest()
        let scenarios = Self.oneClient(initial: 1, calls: 1...1)
        let options = LinearizabilityStressOptions(
            stress: StressOptions(iterations: 30, timeBudget: nil, escalation: EscalationOptions(schedules: 20)),
            scenarios: scenarios)
        let report = try await test.runStress("next-put queue", options: options)
        let lost = StressOutcome<LinearizabilityOutcome>.returned(
            .violation(HistoryViolation(kind: .notLinearizable, operations: ["take()"])))
        #expect(Set(report.histogram.map(\.outcome)) == [.returned(.linearizable), lost])
        #expect(report.stop == .iterations)
        let escalation = try #require(report.escalations.first)
        #expect(escalation.target == lost)
        let failure = try #require(escalation.result.failure)
        guard case .historyRejected(.verdict(.notLinearizable, let explanation), _) = failure.reason else {
            Issue.record("the search found \(failure.reason)")
            return
        }
        #expect(explanation.contains("a lost wake-up"))
        try Self.expectReplaysIdentically(failure, test, name: "next-put queue", scenarios: scenarios)
    }

    @Test("a take on an empty queue, a put on a full one, waits for good, justified: linearizable; the run goes on")
    func justifiedWaitsPass() async throws {
        let options = LinearizabilityStressOptions(
            stress: StressOptions(iterations: 30, timeBudget: nil), scenarios: Self.oneClient(initial: 0, calls: 1...2))
        let report = try await oneConditionQueueTest(wakesAll: true).runStress("waits for good", options: options)
        #expect(report.histogram.map(\.outcome) == [.returned(.linearizable)])
        #expect(report.count(of: .returned(.linearizable)) == 30)
        #expect(report.stop == .iterations)
    }

    @Test("a one-condition queue on the real threads: broadcasting passes; signalling is lost wake-ups or passes")
    func oneConditionQueueOnRealThreads() async throws {
        let scenarios = LinearizabilityOptions(seed: 2)
        let options = LinearizabilityStressOptions(
            stress: StressOptions(iterations: 200, timeBudget: nil, escalation: EscalationOptions(schedules: 300)),
            scenarios: scenarios)
        let broadcast = try await oneConditionQueueTest(wakesAll: true).runStress("broadcast", options: options)
        #expect(broadcast.histogram.map(\.outcome) == [.returned(.linearizable)])
        #expect(broadcast.stop == .iterations)
        let test = oneConditionQueueTest(wakesAll: false)
        let signal = try await test.runStress("signal", options: options)
        for row in signal.histogram {
            switch row.outcome {
            case .returned(.linearizable):
                break
            case .returned(.violation(let violation)):
                #expect(violation.kind == .notLinearizable)
            default:
                Issue.record("an outcome other than a verdict: \(row.outcome)")
            }
        }
        // Which scenarios showed a violation is the real threads' doing, so a search within its
        // budget may miss one (under ThreadSanitizer it did): what is found must replay, and what
        // is not must be a search that ran and met nothing outside the seam.
        for escalation in signal.escalations {
            switch escalation.result {
            case .found(let failure, _, _):
                try Self.expectReplaysIdentically(failure, test, name: "signal", scenarios: scenarios)
            case .notFound(let schedulesRun, let others, _, _):
                #expect(schedulesRun > 0)
                #expect(!others.contains { $0.reason.showsCodeOutsideTheSeam })
            case .notSearched(let reason):
                Issue.record("an escalation was not searched: \(reason)")
            }
        }
        #expect(signal.stop == .iterations)
    }

    @Test("a test that cannot run is an error before anything runs")
    func errorsBeforeRunning() async {
        let empty = LinearizabilityTest(model: BoxOfficeModel(capacity: 1)) { BoxOffice(capacity: 1) }
        await #expect(throws: LinearizabilityTestError.noOperations) {
            try await empty.runStress("empty", options: LinearizabilityStressOptions())
        }
        var options = LinearizabilityStressOptions()
        options.stress.maxTimeBudget = .milliseconds(10)
        do {
            _ = try await BoxOffices.overbooking().runStress("cap below budget", options: options)
            Issue.record("a cap below the time budget ran")
        } catch {
            guard case .configuration(.invalid(let setting, _, _)) = error else {
                Issue.record("another error: \(error)")
                return
            }
            #expect(setting == "StressOptions.maxTimeBudget")
        }
    }
}
