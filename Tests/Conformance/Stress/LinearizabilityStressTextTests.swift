@testable import Harness
import Testing

/// The report of a linearizability test under stress fits 40 lines however many kinds of
/// violation and escalations it has; the attached full report keeps every row.
@Suite("Stress: the report of a linearizability test fits 40 lines")
struct LinearizabilityStressTextTests {
    private static func report(kinds: Int) -> StressReport<LinearizabilityOutcome> {
        let outcomes = (0..<kinds).map { kind in
            StressOutcome<LinearizabilityOutcome>.returned(
                .violation(HistoryViolation(kind: .notLinearizable, operations: ["operation\(kind)()"])))
        }
        let rows =
            outcomes.enumerated().map {
                StressHistogramRow(
                    outcome: $0.element, count: 1, verdict: .forbidden, meaning: "no order", firstIteration: $0.offset)
            } + [
                StressHistogramRow(
                    outcome: .returned(.linearizable), count: 500, verdict: .acceptable, meaning: "some order",
                    firstIteration: 0)
            ]
        let escalations = outcomes.prefix(100).map {
            StressEscalation(
                target: $0,
                result: .notFound(
                    schedulesRun: 30, otherFailures: [], otherForbiddenReached: 0,
                    likelyCauses: LikelyCause.ranked([], otherForbiddenReached: 0)))
        }
        return StressReport(
            test: "many kinds", iterations: 500 + kinds, threads: 2, elapsed: .seconds(1), stop: .timeCap,
            histogram: rows, escalations: escalations)
    }

    @Test("a report of one kind shows everything; of 30 kinds and 30 escalations, at most 40 lines", arguments: [1, 30])
    func fitsFortyLines(kinds: Int) {
        let report = Self.report(kinds: kinds)
        let lines = report.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 40)
        #expect(
            lines[0].hasSuffix(
                "(time cap reached while new outcomes still appeared); \(kinds) "
                    + "\(kinds == 1 ? "iteration" : "iterations") ended in a forbidden outcome"))
        #expect(report.text.contains("not linearizable: operation0()"))
        if kinds == 1 {
            #expect(lines.count == 6)
            #expect(
                lines[4] == "escalation of 'not linearizable: operation0()': no schedule ends in it within 30 schedules"
            )
        } else {
            #expect(lines.count == 40)
            #expect(lines.last?.hasSuffix("more lines in the attached report") == true)
            #expect(report.fullReport.contains("not linearizable: operation29()"))
        }
    }
}
