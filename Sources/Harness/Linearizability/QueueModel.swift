/// A FIFO queue's operations, for ``QueueModel``.
public enum QueueOperation<Element: Hashable>: Hashable, CustomStringConvertible {
    /// Adds a value at the back.
    case enqueue(Element)
    /// Removes the value at the front.
    case dequeue

    /// `enqueue(1)`, `dequeue()`.
    public var description: String {
        switch self {
        case .enqueue(let value): "enqueue(\(value))"
        case .dequeue: "dequeue()"
        }
    }
}

/// What a queue operation returns.
public enum QueueResult<Element: Hashable>: Hashable, CustomStringConvertible {
    /// An enqueue's answer.
    case enqueued
    /// A dequeue that removed a value.
    case dequeued(Element)
    /// A dequeue that found the queue empty.
    case empty

    /// `enqueued`, the value, or `empty`.
    public var description: String {
        switch self {
        case .enqueued: "enqueued"
        case .dequeued(let value): "\(value)"
        case .empty: "empty"
        }
    }
}

/// An unbounded FIFO queue as a sequential model.
///
/// Starting empty, on a history where each value is enqueued by at most one call, the
/// checker decides in O(n log n) without search (``LinearizabilityVerdict/Method/uniqueValueQueue``),
/// pending calls included; otherwise it searches.
public struct QueueModel<Element: Hashable>: SequentialModel, CustomStringConvertible {
    /// The values in the queue, front first.
    public var elements: [Element]

    /// A queue holding `elements`, front first.
    @inlinable
    public init(_ elements: [Element] = []) {
        self.elements = elements
    }

    /// Performs `operation` on the queue and returns its answer.
    @inlinable
    public mutating func apply(_ operation: QueueOperation<Element>) -> QueueResult<Element> {
        switch operation {
        case .enqueue(let value):
            elements.append(value)
            return .enqueued
        case .dequeue:
            return elements.isEmpty ? .empty : .dequeued(elements.removeFirst())
        }
    }

    /// Whether both hold the same values in the same order.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }

    /// Hashes the values held.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }

    /// `queue [1, 2]`, front first.
    public var description: String { "queue \(elements)" }
}

extension QueueOperation: Sendable where Element: Sendable {}
extension QueueResult: Sendable where Element: Sendable {}
extension QueueModel: Sendable where Element: Sendable {}
