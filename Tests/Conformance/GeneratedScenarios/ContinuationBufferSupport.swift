import Harness

/// A bounded buffer as an actor, as users write one: a caller that cannot go on (a `take`
/// while it is empty, a `put` while it is full) suspends on a continuation kept in one list
/// for both kinds, and looks again once resumed.
///
/// With `resumesAll` every change resumes every waiter, which is correct. Without, it
/// resumes the first: with takers and putters in the list it may be one of the wrong kind,
/// which finds nothing to do and suspends again, while the caller that could go on is never
/// resumed (a lost wake-up).
actor ContinuationBuffer {
    private let capacity: Int
    private let resumesAll: Bool
    private var elements: [Int] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(capacity: Int, resumesAll: Bool) {
        self.capacity = capacity
        self.resumesAll = resumesAll
    }

    func put(_ value: Int) async {
        while elements.count >= capacity { await withCheckedContinuation { waiters.append($0) } }
        elements.append(value)
        resumeWaiters()
    }

    func take() async -> Int {
        while elements.isEmpty { await withCheckedContinuation { waiters.append($0) } }
        let value = elements.removeFirst()
        resumeWaiters()
        return value
    }

    private func resumeWaiters() {
        guard !waiters.isEmpty else { return }
        let woken = resumesAll ? waiters : [waiters[0]]
        waiters.removeFirst(woken.count)
        for waiter in woken { waiter.resume() }
    }
}

/// The generated test of a ``ContinuationBuffer`` of capacity 1 against
/// ``BlockingQueueModel``: `put` and `take` both blocking, and `async`, so the clients are
/// tasks.
func continuationBufferTest(resumesAll: Bool) -> LinearizabilityTest<ContinuationBuffer, BlockingQueueModel> {
    LinearizabilityTest(model: BlockingQueueModel(capacity: 1)) {
        ContinuationBuffer(capacity: 1, resumesAll: resumesAll)
    }
    .blockingOperation(BlockingQueueModel.Operation.put, .int(in: 1...3)) { buffer, value in
        await buffer.put(value)
        return .put
    }
    .blockingOperation(.take) { buffer in .took(await buffer.take()) }
}
