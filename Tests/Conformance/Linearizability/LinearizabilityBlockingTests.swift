import Harness
import Testing

/// Blocking operations: no call takes effect where the model blocks it, and a call still
/// waiting when the run ended (blocked) is accepted only when some order of the other calls
/// leaves the model blocking it.
@Suite("Linearizability: blocking operations and blocked calls")
struct LinearizabilityBlockingTests {
    typealias Bounded = History<BlockingQueueModel.Operation, BlockingQueueModel.Result>

    @Test("a take blocked on an empty queue is justified, and takes no place in the order")
    func justifiedBlock() {
        var history = Bounded([
            call(0, .put(1), .put, 0...1), call(1, .take, .took(1), 2...3), pending(2, .take, from: 4)
        ])
        history.markPendingCallsBlocked()
        let verdict = LinearizabilityChecker.check(history, model: BlockingQueueModel(capacity: 1))
        #expect(verdict.order == [0, 1])
        #expect(verdict.history.entries[2].isBlocked)
    }

    @Test("a take blocked while every order leaves an element in the queue is a lost wake-up")
    func lostWakeUp() {
        var history = Bounded([call(0, .put(1), .put, 0...1), pending(1, .take, from: 2)])
        history.markPendingCallsBlocked()
        let verdict = LinearizabilityChecker.check(history, model: BlockingQueueModel(capacity: 1))
        #expect(
            verdict.violation
                == .lostWakeUp(
                    LostWakeUp(
                        partition: nil, order: [0], modelState: "queue [1] of 1",
                        wakeable: [BlockedCall(entry: 1, modelAnswer: .took(1))])))
        #expect(verdict.method == .search)
        #expect(verdict.description.contains("a lost wake-up"))
        #expect(verdict.description.contains("take() (client 1, from 2, blocked) would return 1"))
        // The same call merely pending (its run cut short) may not have taken effect yet.
        let cutShort = Bounded([call(0, .put(1), .put, 0...1), pending(1, .take, from: 2)])
        #expect(LinearizabilityChecker.check(cutShort, model: BlockingQueueModel(capacity: 1)).isLinearizable)
    }

    @Test("the search goes on past a first order that leaves a blocked call able to return")
    func laterOrderJustifies() {
        // put(2) can wait only if the pending put(1) took effect and filled the queue.
        let history = Bounded([pending(0, .put(1), from: 0), blocked(1, .put(2), from: 1)])
        #expect(LinearizabilityChecker.check(history, model: BlockingQueueModel(capacity: 1)).order == [0])
    }

    @Test("a completed call cannot be placed where the model blocks it")
    func completedCallNeverWhereBlocked() {
        let history = Bounded([call(1, .take, .took(1), 0...1), call(0, .put(1), .put, 2...3)])
        let verdict = LinearizabilityChecker.check(history, model: BlockingQueueModel(capacity: 1))
        #expect(
            verdict.violation
                == .noSequentialOrder(
                    SearchDeadEnd(
                        partition: nil, longestPrefix: [], modelState: "queue [] of 1",
                        blocked: [BlockedCall(entry: 0, modelAnswer: nil)])))
        #expect(verdict.description.contains("but the model makes that call wait"))
    }

    @Test("a model without blocking operations justifies no blocked call, and the fast checks leave it to the search")
    func nonBlockingModel() {
        var history = History<QueueOperation<Int>, QueueResult<Int>>([pending(0, .dequeue, from: 0)])
        history.markPendingCallsBlocked()
        let verdict = LinearizabilityChecker.check(history, model: QueueModel<Int>())
        #expect(verdict.method == .search)
        #expect(
            verdict.violation
                == .lostWakeUp(
                    LostWakeUp(
                        partition: nil, order: [], modelState: "queue []",
                        wakeable: [BlockedCall(entry: 0, modelAnswer: .empty)])))
    }
}

/// A call of `client` invoked at `invocation` and still waiting, for good, when the run ended.
private func blocked<Operation, Result>(_ client: Int, _ operation: Operation, from invocation: Int)
    -> History<Operation, Result>.Entry
{
    .init(client: client, operation: operation, invocation: invocation, blocked: true)
}
