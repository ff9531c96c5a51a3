import Harness
import Testing

/// The one place verdicts become words: what each kind of verdict says.
@Suite("Linearizability: verdicts in words")
struct LinearizabilityDescriptionTests {
    @Test("each kind of verdict explains itself")
    func descriptions() {
        let neverDequeued = History<QueueOperation<Int>, QueueResult<Int>>([
            call(0, .enqueue(1), .enqueued, 0...1),
            call(0, .enqueue(2), .enqueued, 2...3),
            call(1, .dequeue, .dequeued(2), 4...5)
        ])
        #expect(
            LinearizabilityChecker.check(neverDequeued, model: QueueModel<Int>()).description == """
                not linearizable (unique-value queue check): dequeue() → 2 (client 1, 4–5) returned 2, but 1 was \
                enqueued before 2 (enqueue(1) → enqueued (client 0, 0–1) responded before enqueue(2) → enqueued \
                (client 0, 2–3) was invoked) and never dequeued.
                """)
        #expect(
            LinearizabilityChecker(usesFastChecks: false).check(neverDequeued, model: QueueModel<Int>()).description
                == """
                not linearizable (found by search, 3 steps): no sequential order of the calls gives every call its \
                recorded result. The longest order found that does takes 2 of them:
                  1. enqueue(1) → enqueued (client 0, 0–1)
                  2. enqueue(2) → enqueued (client 0, 2–3)
                and leaves the model in the state queue [1, 2]. After it, the next call must be one invoked before \
                dequeue() → 2 (client 1, 4–5) responded (it responded first of the calls left), but the model answers \
                that call 1, and no other call was invoked in time.
                """)

        let emptyWhileHeld = History<StackOperation<Int>, StackResult<Int>>([
            call(0, .push(1), .pushed, 0...1), call(1, .pop, .empty, 2...3)
        ])
        #expect(
            LinearizabilityChecker.check(emptyWhileHeld, model: StackModel<Int>()).description == """
                not linearizable (unique-value stack check): pop() → empty (client 1, 2–3) found the stack empty, but \
                it held a value all through that call: 1 from the response of push(1) → pushed (client 0, 0–1) on, \
                never popped.
                """)

        let linearizable = History<RegisterModel.Operation, RegisterModel.Result>([
            call(0, .write(1), .written, 0...3), call(1, .read, .value(0), 1...2)
        ])
        #expect(
            LinearizabilityChecker.check(linearizable, model: RegisterModel()).description == """
                linearizable: 2 calls (found by search); one sequential order:
                  1. read() → 0 (client 1, 1–2)
                  2. write(1) → ok (client 0, 0–3)
                """)

        let flaky = History<LeakyCounterModel.Operation, Int>([call(0, .increment, 1, 0...1)])
        #expect(
            LinearizabilityChecker.check(flaky, model: LeakyCounterModel()).description == """
                the model is not deterministic: applying increment() (the call increment() → 1 (client 0, 0–1)) to two \
                equal copies of the state LeakyCounterModel(storage: Conformance.LeakyCounterModel.Storage, \
                leaksIntoAnswers: true, state: 0) answered 1 the first time and 2 the second. A model's apply must \
                depend only on the model's value; no verdict can be trusted until it does.
                """)

        #expect(
            LinearizabilityChecker(budget: 1).check(linearizable, model: RegisterModel()).description.hasPrefix(
                "undecided: the search spent its budget of 1 steps without finding an order of the 2 calls or ruling "
                    + "one out."
            ))
    }
}
