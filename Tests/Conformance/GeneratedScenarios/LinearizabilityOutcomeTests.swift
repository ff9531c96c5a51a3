import Harness
import Testing

/// A stress run of a linearizability test counts a history by the kind of its violation, a
/// value, so one bug is one row whatever the values, positions and words of its histories.
@Suite("Generated scenarios under stress: a history's outcome is the kind of its violation")
struct LinearizabilityOutcomeTests {
    private typealias Entry = History<BoxOfficeModel.Operation, BoxOfficeModel.Result>.Entry

    /// Two reservations of one seat that both got it, `reserve()` calls in between.
    private static func overbooked(extraCalls: Int, offset: Int) -> History<
        BoxOfficeModel.Operation, BoxOfficeModel.Result
    > {
        var entries = [
            Entry(client: 1, operation: .reserve, result: .granted, invocation: offset, response: offset + 3),
            Entry(client: 2, operation: .reserve, result: .granted, invocation: offset + 1, response: offset + 2)
        ]
        for call in 0..<extraCalls {
            let at = offset + 4 + 2 * call
            entries.append(Entry(client: 1, operation: .reserve, result: .refused, invocation: at, response: at + 1))
        }
        return History(entries)
    }

    private static func outcome(
        _ history: History<BoxOfficeModel.Operation, BoxOfficeModel.Result>, capacity: Int = 1
    ) -> LinearizabilityOutcome {
        LinearizabilityOutcome(LinearizabilityChecker().check(history, model: BoxOfficeModel(capacity: capacity)))
    }

    @Test("overbookings of other lengths and positions are one kind: not linearizable, involving reserve()")
    func oneBugOneKind() {
        let expected = LinearizabilityOutcome.violation(
            HistoryViolation(kind: .notLinearizable, operations: ["reserve()"]))
        #expect(Self.outcome(Self.overbooked(extraCalls: 0, offset: 0)) == expected)
        #expect(Self.outcome(Self.overbooked(extraCalls: 3, offset: 10)) == expected)
        #expect(Self.outcome(Self.overbooked(extraCalls: 0, offset: 0), capacity: 2) == .linearizable)
    }

    @Test("queue histories that lose different values are one kind; an enum case's payload is left out")
    func valuesLeftOut() {
        func lostValue(_ first: Int, _ second: Int) -> LinearizabilityOutcome {
            var history = History<QueueOperation<Int>, QueueResult<Int>>()
            history.respond(history.invoke(.enqueue(first), client: 1), with: .enqueued)
            history.respond(history.invoke(.enqueue(second), client: 1), with: .enqueued)
            history.respond(history.invoke(.dequeue, client: 2), with: .dequeued(second))
            return LinearizabilityOutcome(LinearizabilityChecker().check(history, model: QueueModel<Int>()))
        }
        let outcome = lostValue(1, 2)
        #expect(outcome == lostValue(5, 9))
        let violation = outcome.violation
        #expect(violation?.kind == .notLinearizable)
        #expect(violation?.operations.isEmpty == false)
        #expect(violation?.operations.allSatisfy { ["dequeue()", "enqueue"].contains($0) } == true)
    }

    @Test("a violation's operations are a set: order and repeats do not make another kind")
    func operationsAreASet() {
        #expect(
            HistoryViolation(kind: .notLinearizable, operations: ["reserve()", "cancel()", "reserve()"])
                == HistoryViolation(kind: .notLinearizable, operations: ["cancel()", "reserve()"]))
        #expect(
            HistoryViolation(kind: .notLinearizable, operations: ["cancel()"])
                != HistoryViolation(kind: .undecided, operations: ["cancel()"]))
    }

    @Test("a row reads as the kind and its operations")
    func rendering() {
        #expect("\(LinearizabilityOutcome.linearizable)" == "linearizable")
        let violation = HistoryViolation(kind: .notLinearizable, operations: ["reserve()", "cancel()"])
        #expect("\(LinearizabilityOutcome.violation(violation))" == "not linearizable: cancel(), reserve()")
        #expect("\(HistoryViolation(kind: .undecided, operations: []))" == "undecided")
    }
}
