import Harness
import Primitives

/// What the queue's generated scenarios need of a queue of `Int`.
public protocol IntQueue: Sendable {
    /// Adds `value` at the back.
    func enqueue(_ value: Int)
    /// Removes and returns the value at the front, or `nil` when empty.
    func dequeue() -> Int?
}

/// The README's queue: an array behind a ``SeamMutex``.
public final class LockedQueue<Element: Sendable>: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var elements: [Element] = []

    /// An empty queue.
    public init() {}

    /// Adds `element` at the back.
    public func enqueue(_ element: Element) {
        mutex.withLock { elements.append(element) }
    }

    /// Removes and returns the element at the front, or `nil` when empty.
    public func dequeue() -> Element? {
        mutex.withLock { elements.isEmpty ? nil : elements.removeFirst() }
    }
}

extension LockedQueue: IntQueue where Element == Int {}

/// A queue whose dequeue reads the front and removes it in two critical sections, so two
/// dequeues can both return the same value: the README's failure report comes from it.
public final class SplitDequeueQueue: IntQueue, @unchecked Sendable {
    private let mutex = SeamMutex()
    private var elements: [Int] = []

    /// An empty queue.
    public init() {}

    public func enqueue(_ value: Int) {
        mutex.withLock { elements.append(value) }
    }

    /// The defect: the front is read under the lock, and removed under it again later.
    public func dequeue() -> Int? {
        guard let front = mutex.withLock({ elements.first }) else { return nil }
        mutex.withLock { _ = elements.isEmpty ? nil : elements.removeFirst() }
        return front
    }
}

/// The generated scenarios of a queue of `Int` against ``QueueModel``.
public enum QueueOperations {
    /// Enqueues of 1 to 9 and dequeues on a fresh queue from `make`.
    public static func test<Queue: IntQueue>(_ make: @escaping @Sendable () -> Queue) -> LinearizabilityTest<
        Queue, QueueModel<Int>
    > {
        LinearizabilityTest(model: QueueModel<Int>(), make)
            .operation(QueueOperation.enqueue, .int(in: 1...9)) { queue, value in
                queue.enqueue(value)
                return .enqueued
            }
            .operation(.dequeue) { queue in
                queue.dequeue().map(QueueResult.dequeued) ?? .empty
            }
    }
}
