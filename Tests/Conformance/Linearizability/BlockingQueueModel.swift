import Harness

/// A bounded FIFO queue whose `put` waits while it is full and whose `take` waits while it
/// is empty, as a sequential model with blocking operations.
struct BlockingQueueModel: SequentialModel, CustomStringConvertible, Sendable {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
        case put(Int)
        case take

        var description: String {
            switch self {
            case .put(let value): "put(\(value))"
            case .take: "take()"
            }
        }
    }

    enum Result: Hashable, Sendable, CustomStringConvertible {
        case put
        case took(Int)

        var description: String {
            switch self {
            case .put: "put"
            case .took(let value): "\(value)"
            }
        }
    }

    let capacity: Int
    var elements: [Int] = []

    init(capacity: Int, _ elements: [Int] = []) {
        self.capacity = capacity
        self.elements = elements
    }

    func blocks(_ operation: Operation) -> Bool {
        switch operation {
        case .put: elements.count >= capacity
        case .take: elements.isEmpty
        }
    }

    mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .put(let value):
            elements.append(value)
            return .put
        case .take:
            return .took(elements.removeFirst())
        }
    }

    var description: String { "queue \(elements) of \(capacity)" }
}
