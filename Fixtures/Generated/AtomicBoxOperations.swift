import Harness
import Primitives

/// What the atomic box's generated scenarios need: a box of `Int?` with every operation of
/// ``AtomicBox``.
public protocol OptionalIntBox: Sendable {
    /// Reads the value.
    func load() -> Int?
    /// Replaces the value.
    func store(_ value: Int?)
    /// Adds `amount` to the value unless it is `nil`, in one step; returns the new value.
    func add(_ amount: Int) -> Int?
    /// Replaces the value with `desired` if it is `expected`, in one step.
    func compareExchange(expected: Int?, desired: Int?) -> (exchanged: Bool, original: Int?)
    /// Returns the value and leaves `nil`, in one step.
    func take() -> Int?
}

/// The real ``AtomicBox`` as the generated scenarios see it, starting at 0.
public struct LiveOptionalIntBox: OptionalIntBox {
    private let box = AtomicBox<Int?>(0)

    /// A box holding 0.
    public init() {}

    public func load() -> Int? { box.load() }
    public func store(_ value: Int?) { box.store(value) }
    public func add(_ amount: Int) -> Int? {
        box.update { value in
            if let current = value { value = current + amount }
            return value
        }
    }
    public func compareExchange(expected: Int?, desired: Int?) -> (exchanged: Bool, original: Int?) {
        box.compareExchange(expected: expected, desired: desired)
    }
    public func take() -> Int? { box.take() }
}

extension CheckThenActAtomicBox: OptionalIntBox where Value == Int? {
    public func add(_ amount: Int) -> Int? {
        update { value in
            if let current = value { value = current + amount }
            return value
        }
    }
}

/// An atomic box of `Int?` as a sequential model.
public struct AtomicBoxModel: SequentialModel, Sendable, CustomStringConvertible {
    /// The box's operations.
    public enum Operation: Hashable, Sendable, CustomStringConvertible {
        case load
        case store(Int?)
        case add(Int)
        case compareExchange(expected: Int?, desired: Int?)
        case take

        public var description: String {
            switch self {
            case .load: "load()"
            case .store(let value): "store(\(value.text))"
            case .add(let amount): "add(\(amount))"
            case let .compareExchange(expected, desired): "compareExchange(\(expected.text), \(desired.text))"
            case .take: "take()"
            }
        }
    }

    /// What they return.
    public enum Result: Hashable, Sendable, CustomStringConvertible {
        case value(Int?)
        case stored
        case exchanged(Bool, original: Int?)

        public var description: String {
            switch self {
            case .value(let value): value.text
            case .stored: "stored"
            case let .exchanged(exchanged, original): "(\(exchanged), \(original.text))"
            }
        }
    }

    /// The value held.
    public var value: Int?

    /// A box holding `value`.
    public init(_ value: Int? = 0) { self.value = value }

    public mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .load:
            return .value(value)
        case .store(let newValue):
            value = newValue
            return .stored
        case .add(let amount):
            if let current = value { value = current + amount }
            return .value(value)
        case let .compareExchange(expected, desired):
            let original = value
            guard original == expected else { return .exchanged(false, original: original) }
            value = desired
            return .exchanged(true, original: original)
        case .take:
            defer { value = nil }
            return .value(value)
        }
    }

    public var description: String { "box \(value.text)" }
}

extension Optional where Wrapped == Int {
    /// `3`, or `nil`.
    var text: String { map(String.init) ?? "nil" }
}

/// The generated scenarios of an atomic box: every operation, on values 0 to 2 or `nil`.
public enum AtomicBoxOperations {
    /// The operations on a fresh box from `make`, which must hold 0.
    public static func test<Box: OptionalIntBox>(_ make: @escaping @Sendable () -> Box) -> LinearizabilityTest<
        Box, AtomicBoxModel
    > {
        let values = Generator.optional(.int(in: 0...2))
        return LinearizabilityTest(model: AtomicBoxModel(0), make)
            .operation(.load) { box in .value(box.load()) }
            .operation(AtomicBoxModel.Operation.store, values) { box, value in
                box.store(value)
                return .stored
            }
            .operation(AtomicBoxModel.Operation.add, .int(in: 1...2)) { box, amount in .value(box.add(amount)) }
            .operation(
                { AtomicBoxModel.Operation.compareExchange(expected: $0.0, desired: $0.1) }, .zip(values, values)
            ) { box, pair in
                let (exchanged, original) = box.compareExchange(expected: pair.0, desired: pair.1)
                return .exchanged(exchanged, original: original)
            }
            .operation(.take) { box in .value(box.take()) }
    }
}
