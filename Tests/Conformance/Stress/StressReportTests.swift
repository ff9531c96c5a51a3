import Harness
import Testing

@Suite("Stress: the report")
struct StressReportTests {
    @Test("the report shows the run, the histogram and each escalation with its replay command")
    func rendering() async throws {
        let test = StressTest<Int>(outcomes: [
            .acceptable(7, meaning: "seven"),
            .forbidden(8, meaning: "eight")
        ]) { scenario in scenario.mode == .stress ? 8 : 7 }
        let options = StressOptions(
            iterations: 50, timeBudget: nil, threads: 1,
            escalation: EscalationOptions(strategies: [.random], schedules: 10))
        let report = try await Harness.runStress("rendered", options: options, test)
        let lines = report.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("stress 'rendered': 50 iterations in "))
        #expect(lines[0].hasSuffix(" s on 1 thread (all iterations ran); 50 iterations ended in a forbidden outcome"))
        #expect(
            Array(lines[1...3]) == [
                "  count  class        outcome  meaning",
                "     50  forbidden    8        eight",
                "escalation of '8': no schedule ends in it within 10 schedules. Likely causes, the most likely first:"
            ])
        #expect(lines[4].hasPrefix("  - memory ordering weaker than the model: "))
        #expect(lines.count == 8)
    }

    @Test("outcomes are shown as the report shows them; failures are forbidden whatever the table says")
    func outcomeText() {
        let table = OutcomeClassification<Int>([.acceptable(meaning: "anything") { _ in true }])
        let rows: [(StressOutcome<Int>, String, OutcomeClass)] = [
            (.returned(3), "3", .acceptable),
            (
                .checkFailed(message: "broken", file: "M/F.swift", line: 9), "check failed at M/F.swift:9: broken",
                .forbidden
            ),
            (.threw(error: "boom"), "threw: boom", .forbidden),
            (.hung(seconds: 2), "hung: did not finish within 2.0 s", .forbidden)
        ]
        for (outcome, text, verdict) in rows {
            #expect("\(outcome)" == text)
            #expect(outcome.classified(by: table).verdict == verdict)
        }
    }
}
