/// A LIFO stack's operations, for ``StackModel``.
public enum StackOperation<Element: Hashable>: Hashable, CustomStringConvertible {
    /// Adds a value on top.
    case push(Element)
    /// Removes the value on top.
    case pop

    /// `push(1)`, `pop()`.
    public var description: String {
        switch self {
        case .push(let value): "push(\(value))"
        case .pop: "pop()"
        }
    }
}

/// What a stack operation returns.
public enum StackResult<Element: Hashable>: Hashable, CustomStringConvertible {
    /// A push's answer.
    case pushed
    /// A pop that removed a value.
    case popped(Element)
    /// A pop that found the stack empty.
    case empty

    /// `pushed`, the value, or `empty`.
    public var description: String {
        switch self {
        case .pushed: "pushed"
        case .popped(let value): "\(value)"
        case .empty: "empty"
        }
    }
}

/// An unbounded LIFO stack as a sequential model.
///
/// Starting empty, on a history where each value is pushed by at most one call, the checker
/// decides in O(n²) without search (``LinearizabilityVerdict/Method/uniqueValueStack``),
/// O(n²) again for each pending pop that must take a value. Pending pops take the values that
/// would otherwise make the check fail; a history that still fails while pending pops could
/// have taken other values, and every other history, the checker searches.
public struct StackModel<Element: Hashable>: SequentialModel, CustomStringConvertible {
    /// The values on the stack, bottom first.
    public var elements: [Element]

    /// A stack holding `elements`, bottom first.
    @inlinable
    public init(_ elements: [Element] = []) {
        self.elements = elements
    }

    /// Performs `operation` on the stack and returns its answer.
    @inlinable
    public mutating func apply(_ operation: StackOperation<Element>) -> StackResult<Element> {
        switch operation {
        case .push(let value):
            elements.append(value)
            return .pushed
        case .pop:
            return elements.popLast().map { .popped($0) } ?? .empty
        }
    }

    /// Whether both hold the same values in the same order.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }

    /// Hashes the values held.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }

    /// `stack [1, 2]`, bottom first.
    public var description: String { "stack \(elements)" }
}

extension StackOperation: Sendable where Element: Sendable {}
extension StackResult: Sendable where Element: Sendable {}
extension StackModel: Sendable where Element: Sendable {}
