import Harness
import Primitives

/// A bounded blocking queue as users write one: a mutex, one condition for both kinds of
/// waiters (takers wait for an element, putters for room), and a loop around each wait.
///
/// With `wakesAll` it broadcasts after every change, which is correct. Without, it signals:
/// one waiter wakes, and with takers and putters waiting on the same condition it may be one
/// of the wrong kind, which finds nothing to do and waits again, while the waiter that could
/// go on is never woken (a lost wake-up).
final class OneConditionQueue: @unchecked Sendable {
    private let mutex = SeamMutex()
    private let changed = SeamCondition()
    private let capacity: Int
    private let wakesAll: Bool
    private var elements: [Int] = []

    init(capacity: Int, wakesAll: Bool) {
        self.capacity = capacity
        self.wakesAll = wakesAll
    }

    func put(_ value: Int) {
        mutex.withLock {
            while elements.count >= capacity { changed.wait(on: mutex) }
            elements.append(value)
            wake()
        }
    }

    func take() -> Int {
        mutex.withLock {
            while elements.isEmpty { changed.wait(on: mutex) }
            let value = elements.removeFirst()
            wake()
            return value
        }
    }

    private func wake() {
        if wakesAll { changed.broadcast() } else { changed.signal() }
    }
}

/// The generated test of a ``OneConditionQueue`` of capacity 1 against ``BlockingQueueModel``:
/// `put` and `take` both blocking.
func oneConditionQueueTest(wakesAll: Bool) -> LinearizabilityTest<OneConditionQueue, BlockingQueueModel> {
    LinearizabilityTest(model: BlockingQueueModel(capacity: 1)) { OneConditionQueue(capacity: 1, wakesAll: wakesAll) }
        .blockingOperation(BlockingQueueModel.Operation.put, .int(in: 1...3)) { queue, value in
            queue.put(value)
            return .put
        }
        .blockingOperation(.take) { queue in .took(queue.take()) }
}

/// A blocking queue whose `take` waits for the next `put` before it looks at the queue, as
/// if each element brought its own wake-up: an element put before the take began is not
/// waited for, and with no `put` after it the take waits for good while the queue holds an
/// element. With one client after an initial `put`, that lost wake-up needs no race.
final class NextPutQueue: @unchecked Sendable {
    private let mutex = SeamMutex()
    private let putDone = SeamCondition()
    private var elements: [Int] = []
    private var puts = 0

    func put(_ value: Int) {
        mutex.withLock {
            elements.append(value)
            puts += 1
            putDone.broadcast()
        }
    }

    func take() -> Int {
        mutex.withLock {
            let seen = puts
            while puts == seen { putDone.wait(on: mutex) }
            return elements.removeFirst()
        }
    }
}

/// The generated test of a ``NextPutQueue`` against an unbounded ``BlockingQueueModel``:
/// `put` never blocks, so the initial part may draw it; `take` blocks.
func nextPutQueueTest() -> LinearizabilityTest<NextPutQueue, BlockingQueueModel> {
    LinearizabilityTest(model: BlockingQueueModel(capacity: .max)) { NextPutQueue() }
        .operation(BlockingQueueModel.Operation.put, .int(in: 1...3)) { queue, value in
            queue.put(value)
            return .put
        }
        .blockingOperation(.take) { queue in .took(queue.take()) }
}
