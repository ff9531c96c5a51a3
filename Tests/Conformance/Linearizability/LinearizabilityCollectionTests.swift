import Harness
import Testing

@Suite("Linearizability: queues, stacks and sets with unique values")
struct LinearizabilityCollectionTests {
    typealias Queue = History<QueueOperation<Int>, QueueResult<Int>>
    typealias Stack = History<StackOperation<Int>, StackResult<Int>>
    typealias Sets = History<SetOperation<Int>, Bool>

    // MARK: Queues

    @Test("a dequeue may take a value whose enqueue has not yet returned")
    func queueOverlap() throws {
        let history = Queue([
            call(0, .enqueue(1), .enqueued, 0...5),
            call(1, .dequeue, .dequeued(1), 1...2),
            call(1, .dequeue, .empty, 3...4)
        ])
        let verdict = LinearizabilityChecker.check(history, model: QueueModel<Int>())
        #expect(verdict.method == .uniqueValueQueue)
        #expect(verdict.order == [0, 1, 2])
    }

    @Test("a value dequeued while an older one was never dequeued")
    func queueNeverDequeued() {
        let history = Queue([
            call(0, .enqueue(1), .enqueued, 0...1),
            call(0, .enqueue(2), .enqueued, 2...3),
            call(1, .dequeue, .dequeued(2), 4...5)
        ])
        let verdict = LinearizabilityChecker.check(history, model: QueueModel<Int>())
        #expect(
            verdict.violation
                == .collection(
                    .fifo(
                        earlier: "1", later: "2", earlierInsertion: 0, laterInsertion: 1, earlierRemoval: nil,
                        laterRemoval: 2)))
        // The search agrees, and says where it got stuck.
        let searched = LinearizabilityChecker(usesFastChecks: false).check(history, model: QueueModel<Int>())
        #expect(
            searched.violation
                == .noSequentialOrder(
                    SearchDeadEnd(
                        partition: nil, longestPrefix: [0, 1], modelState: "queue [1, 2]",
                        blocked: [BlockedCall(entry: 2, modelAnswer: .dequeued(1))]
                    )))
    }

    @Test("values dequeued in the other order than they were enqueued")
    func queueOutOfOrder() {
        let history = Queue([
            call(0, .enqueue(1), .enqueued, 0...1),
            call(0, .enqueue(2), .enqueued, 2...3),
            call(1, .dequeue, .dequeued(2), 4...7),
            call(2, .dequeue, .dequeued(1), 8...9)
        ])
        let verdict = LinearizabilityChecker.check(history, model: QueueModel<Int>())
        #expect(
            verdict.violation
                == .collection(
                    .fifo(
                        earlier: "1", later: "2", earlierInsertion: 0, laterInsertion: 1, earlierRemoval: 3,
                        laterRemoval: 2)))
    }

    @Test("an empty dequeue while a value was surely in the queue")
    func queueEmptyWhileHeld() {
        let history = Queue([
            call(0, .enqueue(1), .enqueued, 0...1),
            call(1, .dequeue, .empty, 2...3),
            call(0, .dequeue, .dequeued(1), 4...5)
        ])
        let verdict = LinearizabilityChecker.check(history, model: QueueModel<Int>())
        #expect(
            verdict.violation
                == .collection(.emptyWhileHeld(observer: 1, holders: [.init(value: "1", since: 0, until: 2)])))
    }

    @Test("a value dequeued twice, one never enqueued, one dequeued before its enqueue began")
    func queueValueFacts() {
        let twice = Queue([
            call(0, .enqueue(1), .enqueued, 0...1),
            call(1, .dequeue, .dequeued(1), 2...3),
            call(2, .dequeue, .dequeued(1), 4...5)
        ])
        #expect(
            LinearizabilityChecker.check(twice, model: QueueModel<Int>()).violation
                == .collection(.removedTwice(value: "1", first: 1, second: 2)))
        let never = Queue([call(1, .dequeue, .dequeued(7), 0...1)])
        #expect(
            LinearizabilityChecker.check(never, model: QueueModel<Int>()).violation
                == .collection(.neverInserted(value: "7", observer: 0)))
        let early = Queue([call(1, .dequeue, .dequeued(7), 0...1), call(0, .enqueue(7), .enqueued, 2...3)])
        #expect(
            LinearizabilityChecker.check(early, model: QueueModel<Int>()).violation
                == .collection(.observedBeforeInserted(value: "7", observer: 0, insertion: 1)))
    }

    @Test("a history in its own types, mapped to the queue vocabulary, gets the fast check")
    func mappedHistory() throws {
        enum Call { case put(String), take }
        let history = History<Call, String?>([
            call(0, .put("a"), nil, 0...3),
            call(1, .take, "a", 1...2),
            call(1, .take, nil, 4...5),
            pending(2, .put("b"), from: 4)
        ])
        let mapped = history.map { call -> QueueOperation<String> in
            switch call {
            case .put(let value): .enqueue(value)
            case .take: .dequeue
            }
        } result: { call, result -> QueueResult<String> in
            switch call {
            case .put: .enqueued
            case .take: result.map { .dequeued($0) } ?? .empty
            }
        }
        #expect(mapped.entries.map(\.invocation) == history.entries.map(\.invocation))
        #expect(mapped.entries.map(\.response) == history.entries.map(\.response))
        #expect(mapped.nextPosition == history.nextPosition)
        let verdict = LinearizabilityChecker.check(mapped, model: QueueModel<String>())
        #expect(verdict.method == .uniqueValueQueue)
        #expect(verdict.order == [0, 1, 2])
    }

    @Test("a queue that does not start empty, or enqueues a value twice, is searched")
    func queueOutsideFastCheck() {
        let twice = Queue([
            call(0, .enqueue(1), .enqueued, 0...1), call(0, .enqueue(1), .enqueued, 2...3),
            call(1, .dequeue, .dequeued(1), 4...5)
        ])
        #expect(LinearizabilityChecker.check(twice, model: QueueModel<Int>()).method == .search)
        let seeded = Queue([call(1, .dequeue, .dequeued(9), 0...1)])
        let verdict = LinearizabilityChecker.check(seeded, model: QueueModel([9]))
        #expect(verdict.method == .search)
        #expect(verdict.isLinearizable)
    }

    @Test("a 10,000-call queue history goes through the fast check", arguments: [false, true])
    func longQueueHistory(broken: Bool) throws {
        var generator = HistoryGenerator(seed: 13)
        var queue: [Int] = []
        var front = 0
        var nextValue = 0
        var lost = false
        let history = generator.history(
            clients: 8,
            callsPerClient: 1_250,
            stopEarly: true,
            nextOperation: { generator in
                if generator.chance(50) {
                    nextValue += 1
                    return QueueOperation.enqueue(nextValue)
                }
                return .dequeue
            },
            implementation: { _, operation -> QueueResult<Int> in
                switch operation {
                case .enqueue(let value):
                    queue.append(value)
                    return .enqueued
                case .dequeue:
                    guard front < queue.count else { return .empty }
                    if broken, !lost, queue.count - front > 1, nextValue > 3_000 {
                        // Loses the value at the front.
                        lost = true
                        front += 1
                    }
                    front += 1
                    return .dequeued(queue[front - 1])
                }
            }
        )
        #expect(history.entries.count > 9_990)
        let clock = ContinuousClock()
        let start = clock.now
        let verdict = LinearizabilityChecker.check(history, model: QueueModel<Int>())
        let elapsed = clock.now - start
        #expect(verdict.method == .uniqueValueQueue)
        #expect(verdict.isLinearizable == !broken)
        if broken {
            guard case .collection(.fifo)? = verdict.violation else {
                Issue.record("expected a FIFO violation, got \(verdict)")
                return
            }
        } else {
            #expect(history.isLinearization(try #require(verdict.order), model: QueueModel<Int>()))
        }
        // Generous: a debug build on a shared machine; the benchmark holds the real target.
        #expect(elapsed < .seconds(5))
    }

    // MARK: Stacks

    @Test("pops in reverse order of pushes")
    func stackLinearizable() throws {
        let history = Stack([
            call(0, .push(1), .pushed, 0...1),
            call(1, .push(2), .pushed, 2...3),
            call(0, .pop, .popped(2), 4...5),
            call(1, .pop, .popped(1), 6...7),
            call(0, .pop, .empty, 8...9)
        ])
        let verdict = LinearizabilityChecker.check(history, model: StackModel<Int>())
        #expect(verdict.method == .uniqueValueStack)
        #expect(verdict.order == [0, 1, 2, 3, 4])
    }

    @Test("a value popped while a later one was surely on top of it")
    func stackLIFO() {
        let history = Stack([
            call(0, .push(1), .pushed, 0...1),
            call(1, .push(2), .pushed, 2...3),
            call(0, .pop, .popped(1), 4...5),
            call(1, .pop, .popped(2), 6...7)
        ])
        let verdict = LinearizabilityChecker.check(history, model: StackModel<Int>())
        #expect(
            verdict.violation
                == .collection(
                    .lifo(
                        lower: "1", upper: "2", lowerInsertion: 0, upperInsertion: 1, lowerRemoval: 2, upperRemoval: 3))
        )
    }

    @Test("an empty pop while the stack surely held a value")
    func stackEmptyWhileHeld() {
        let history = Stack([
            call(0, .push(1), .pushed, 0...1),
            call(1, .pop, .empty, 2...3)
        ])
        let verdict = LinearizabilityChecker.check(history, model: StackModel<Int>())
        #expect(
            verdict.violation
                == .collection(.emptyWhileHeld(observer: 1, holders: [.init(value: "1", since: 0, until: nil)])))
    }

    @Test("a pending pop takes the value that keeps the stack from being empty")
    func stackPendingPop() throws {
        let history = Stack([
            call(0, .push(1), .pushed, 0...1),
            pending(1, .pop, from: 2),
            call(0, .pop, .empty, 4...5)
        ])
        let verdict = LinearizabilityChecker.check(history, model: StackModel<Int>())
        #expect(verdict.method == .uniqueValueStack)
        #expect(verdict.order == [0, 1, 2])
    }

    @Test("a failure with values pending pops might have taken, but did not help, goes to the search")
    func stackPendingPopUndecided() throws {
        // The pending pop was invoked too late to empty the stack for the empty pop.
        let history = Stack([
            call(0, .push(1), .pushed, 0...1),
            call(0, .pop, .empty, 2...3),
            pending(1, .pop, from: 4)
        ])
        let verdict = LinearizabilityChecker.check(history, model: StackModel<Int>())
        #expect(verdict.method == .search)
        #expect(verdict.violation != nil)
    }

    // MARK: Sets

    @Test("a set's calls on different values interleave freely")
    func setLinearizable() throws {
        let history = Sets([
            call(0, .insert(1), true, 0...3),
            call(1, .contains(1), true, 1...2),
            call(1, .insert(2), true, 4...5),
            call(0, .remove(1), true, 4...7),
            call(2, .contains(1), false, 6...9),
            call(2, .remove(3), false, 10...11)
        ])
        let verdict = LinearizabilityChecker.check(history, model: SetModel<Int>())
        #expect(verdict.method == .uniqueValueSet)
        #expect(history.isLinearization(try #require(verdict.order), model: SetModel<Int>()))
    }

    @Test("a value missing while it was surely in the set")
    func setAbsentWhilePresent() {
        let history = Sets([
            call(0, .insert(1), true, 0...1),
            call(1, .contains(1), false, 2...3),
            call(0, .remove(1), true, 4...5)
        ])
        let verdict = LinearizabilityChecker.check(history, model: SetModel<Int>())
        #expect(
            verdict.violation
                == .collection(.emptyWhileHeld(observer: 1, holders: [.init(value: "1", since: 0, until: 2)])))
    }

    @Test("a value removed twice, found after its removal, found before its insertion")
    func setValueFacts() {
        let twice = Sets([
            call(0, .insert(1), true, 0...1), call(1, .remove(1), true, 2...3), call(2, .remove(1), true, 4...5)
        ])
        #expect(
            LinearizabilityChecker.check(twice, model: SetModel<Int>()).violation
                == .collection(.removedTwice(value: "1", first: 1, second: 2)))
        let afterRemoval = Sets([
            call(0, .insert(1), true, 0...1), call(1, .remove(1), true, 2...3), call(2, .contains(1), true, 4...5)
        ])
        #expect(
            LinearizabilityChecker.check(afterRemoval, model: SetModel<Int>()).violation
                == .collection(.observedAfterRemoved(value: "1", observer: 2, removal: 1)))
        let early = Sets([call(1, .contains(1), true, 0...1), call(0, .insert(1), true, 2...3)])
        #expect(
            LinearizabilityChecker.check(early, model: SetModel<Int>()).violation
                == .collection(.observedBeforeInserted(value: "1", observer: 0, insertion: 1)))
    }
}
