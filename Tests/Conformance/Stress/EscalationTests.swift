@testable import Harness
import Primitives
import Testing

/// The search for a forbidden outcome recognises the outcome it reached by value: the
/// failure carries no sentence to compare, so rewording the report cannot lose a search.
@Suite("Stress: escalation recognises a reached outcome by value")
struct EscalationTests {
    @Test("a search fails its execution with the forbidden outcome as a value, and matches it whatever the words say")
    func reachedOutcomeIsAValue() throws {
        let escalation = Escalation(
            name: "escalation by value",
            test: StressScenarios.alternatelyLostIncrements(),
            options: EscalationOptions(schedules: 200),
            leakNotSearched: StressReportText.leakNotSearched,
            wording: .forPerson
        )
        let found = try #require(escalation.search(for: [.returned(1)]).first?.result.failure)
        #expect(found.reason == .forbiddenOutcome(outcome: "1", thread: 0))
        #expect(Escalation<Int>.matches(.returned(1), .forbiddenOutcome(outcome: "reworded", thread: 0)))
        let sentence = "\(ExecutionFailure.forbiddenOutcome(outcome: "1", thread: 0))"
        let check = ExecutionFailure.invariant(message: sentence, thread: 0, file: "Harness/Escalation.swift", line: 1)
        #expect(!Escalation<Int>.matches(.returned(1), check), "a check whose message says so is not the outcome")
    }
}
