import Harness
import Testing

/// Pending calls (invoked, never returned) may take effect at any point after their
/// invocation, or not at all.
@Suite("Linearizability: pending calls")
struct LinearizabilityPendingTests {
    typealias Register = History<RegisterModel.Operation, RegisterModel.Result>
    typealias Queue = History<QueueOperation<Int>, QueueResult<Int>>

    @Test("a pending write may have taken effect, or not")
    func pendingWrite() {
        let seen = Register([pending(0, .write(1), from: 0), call(1, .read, .value(1), 2...3)])
        #expect(LinearizabilityChecker.check(seen, model: RegisterModel()).order == [0, 1])
        let unseen = Register([pending(0, .write(1), from: 0), call(1, .read, .value(0), 2...3)])
        #expect(LinearizabilityChecker.check(unseen, model: RegisterModel()).order == [1])
        let between = Register([
            pending(0, .write(1), from: 0),
            call(1, .read, .value(0), 2...3),
            call(1, .read, .value(1), 4...5)
        ])
        #expect(LinearizabilityChecker.check(between, model: RegisterModel()).order == [1, 0, 2])
    }

    @Test("a pending call cannot take effect before it was invoked")
    func pendingAfterRead() {
        let history = Register([call(1, .read, .value(1), 0...1), pending(0, .write(1), from: 2)])
        let verdict = LinearizabilityChecker.check(history, model: RegisterModel())
        #expect(
            verdict.violation
                == .noSequentialOrder(
                    SearchDeadEnd(
                        partition: nil, longestPrefix: [], modelState: "register 0",
                        blocked: [BlockedCall(entry: 0, modelAnswer: .value(0))]
                    )))
    }

    @Test("queue: a pending enqueue someone dequeued took effect; a pending dequeue may have taken a value")
    func pendingQueueCalls() {
        let enqueued = Queue([pending(0, .enqueue(1), from: 0), call(1, .dequeue, .dequeued(1), 1...2)])
        let first = LinearizabilityChecker.check(enqueued, model: QueueModel<Int>())
        #expect(first.method == .uniqueValueQueue)
        #expect(first.order == [0, 1])
        // The queue is empty at 3–4 only if the pending dequeue took 1.
        let taken = Queue([
            call(0, .enqueue(1), .enqueued, 0...1),
            pending(1, .dequeue, from: 2),
            call(0, .dequeue, .empty, 3...4)
        ])
        let second = LinearizabilityChecker.check(taken, model: QueueModel<Int>())
        #expect(second.method == .uniqueValueQueue)
        #expect(second.order == [0, 1, 2])
        // 2 can come out first only if the pending dequeue took 1.
        let overtaken = Queue([
            call(0, .enqueue(1), .enqueued, 0...1),
            call(0, .enqueue(2), .enqueued, 2...3),
            pending(1, .dequeue, from: 4),
            call(0, .dequeue, .dequeued(2), 5...6)
        ])
        #expect(LinearizabilityChecker.check(overtaken, model: QueueModel<Int>()).order == [0, 1, 2, 3])
        // Nobody took 1 and nothing pending could have.
        let lost = Queue([
            call(0, .enqueue(1), .enqueued, 0...1),
            pending(0, .enqueue(2), from: 2),
            call(1, .dequeue, .empty, 3...4)
        ])
        #expect(
            LinearizabilityChecker.check(lost, model: QueueModel<Int>()).violation
                == .collection(.emptyWhileHeld(observer: 2, holders: [.init(value: "1", since: 0, until: nil)])))
    }

    @Test("set: a pending insert someone saw took effect; one nobody saw did not need to")
    func pendingSetCalls() {
        let history = History<SetOperation<Int>, Bool>([
            pending(0, .insert(1), from: 0),
            call(1, .contains(1), true, 1...2),
            pending(2, .insert(2), from: 0),
            call(1, .contains(2), false, 3...4),
            pending(3, .remove(1), from: 5)
        ])
        let verdict = LinearizabilityChecker.check(history, model: SetModel<Int>())
        #expect(verdict.method == .uniqueValueSet)
        #expect(verdict.isLinearizable)
        #expect(verdict.order.map { Set($0) } == [0, 1, 3, 4])
    }
}
