/// A set's operations, for ``SetModel``. Each returns a `Bool`.
public enum SetOperation<Element: Hashable>: Hashable, CustomStringConvertible {
    /// Adds a value; returns whether it was absent.
    case insert(Element)
    /// Removes a value; returns whether it was present.
    case remove(Element)
    /// Returns whether a value is present.
    case contains(Element)

    /// The value the operation is about.
    @inlinable
    public var element: Element {
        switch self {
        case .insert(let value), .remove(let value), .contains(let value): value
        }
    }

    /// `insert(1)`, `remove(1)`, `contains(1)`.
    public var description: String {
        switch self {
        case .insert(let value): "insert(\(value))"
        case .remove(let value): "remove(\(value))"
        case .contains(let value): "contains(\(value))"
        }
    }
}

/// A set as a sequential model, partitioned by value: each value's calls are checked on their
/// own.
///
/// Starting empty, on a history where each value is inserted by at most one call, the
/// checker decides in O(n) without search (``LinearizabilityVerdict/Method/uniqueValueSet``),
/// pending calls included; otherwise it searches each value's calls separately.
public struct SetModel<Element: Hashable>: SequentialModel, CustomStringConvertible {
    /// The values in the set.
    public var elements: Set<Element>

    /// A set holding `elements`.
    @inlinable
    public init(_ elements: Set<Element> = []) {
        self.elements = elements
    }

    /// Performs `operation` on the set and returns its answer.
    @inlinable
    public mutating func apply(_ operation: SetOperation<Element>) -> Bool {
        switch operation {
        case .insert(let value): elements.insert(value).inserted
        case .remove(let value): elements.remove(value) != nil
        case .contains(let value): elements.contains(value)
        }
    }

    /// Each value is an independent part.
    @inlinable
    public static func partitionKey(of operation: SetOperation<Element>) -> Element? {
        operation.element
    }

    /// Whether both hold the same values.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }

    /// Hashes the values held.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }

    /// `set [1, 2]`, in no particular order.
    public var description: String { "set \(Array(elements))" }
}

extension SetOperation: Sendable where Element: Sendable {}
extension SetModel: Sendable where Element: Sendable {}
