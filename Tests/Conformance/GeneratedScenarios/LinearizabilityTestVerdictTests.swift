import Fixtures
@testable import Harness
import Testing

/// A generated scenario's history check fails its execution with the verdict as a value: the
/// report reads the verdict from it, and shrinking keys it by its kind, not by the file or the
/// line of a check.
@Suite("Generated scenarios: a rejected history is a value")
struct LinearizabilityTestVerdictTests {
    @Test("a history no order explains fails with the verdict as a value, and the report's reason is its words")
    func verdictIsAValue() throws {
        let report = try QueueOperations.test { SplitDequeueQueue() }.run(
            "split dequeue, by value", options: LinearizabilityOptions(seed: 1))
        let failure = try #require(report.failure)
        guard case .historyRejected(.verdict(.notLinearizable, let explanation), _) = failure.failure.reason else {
            Issue.record("not a rejected history: \(failure.failure.reason)")
            return
        }
        #expect(failure.reason == explanation)
    }

    @Test("shrinking keeps rejections apart by kind, whatever their words or thread")
    func shrinkingKeyIsTheKind() {
        func rejected(_ rejection: HistoryRejection, on thread: Int = 0) -> ExecutionFailure {
            .historyRejected(rejection, thread: thread)
        }
        let violation = rejected(.verdict(.notLinearizable, explanation: "no order gives dequeue() → 1"))
        let reworded = rejected(.verdict(.notLinearizable, explanation: "reworded"), on: 2)
        #expect(violation.shrinkingKey != nil)
        #expect(violation.shrinkingKey == reworded.shrinkingKey)
        #expect(
            violation.shrinkingKey
                != rejected(.verdict(.undecided, explanation: "no order gives dequeue() → 1")).shrinkingKey)
        #expect(violation.shrinkingKey != rejected(.verdict(.modelNotDeterministic, explanation: "")).shrinkingKey)
        #expect(
            violation.shrinkingKey != rejected(.foreignError(call: "push(3)", error: "e", expected: "E")).shrinkingKey)
    }
}
