import Synchronization

/// A value that fits a ``SeamAtomic`` cell: one that converts losslessly to and from 64 bits.
///
/// The integer types and `Bool` conform; so can a `RawRepresentable` type whose raw value
/// conforms (an enum or an option set), by declaring the conformance.
public protocol SeamAtomicValue: Equatable, Sendable {
    /// Recreates the value from the bits ``seamAtomicBits`` gave.
    init(seamAtomicBits: UInt64)
    /// The value's bits.
    var seamAtomicBits: UInt64 { get }
}

/// A shared cell read and written only with sequentially consistent atomic operations, and
/// a seam operation: each operation is one scheduling point under a harness.
///
/// The operations are sequentially consistent because that is what a harness that runs one
/// thread at a time explores; weaker orderings are not modelled. For values that do not
/// fit in 64 bits, use ``AtomicBox``.
public final class SeamAtomic<Value: SeamAtomicValue>: @unchecked Sendable {
    @usableFromInline
    let cell: Atomic<UInt64>

    /// Creates a cell holding `initialValue`.
    public init(_ initialValue: Value) {
        cell = Atomic(initialValue.seamAtomicBits)
    }

    /// Reads the value.
    @inlinable
    public func load(file: StaticString = #fileID, line: UInt = #line) -> Value {
        willAccess(.load, file: file, line: line)
        return Value(seamAtomicBits: cell.load(ordering: .sequentiallyConsistent))
    }

    /// Writes `newValue`.
    @inlinable
    public func store(_ newValue: Value, file: StaticString = #fileID, line: UInt = #line) {
        willAccess(.store, file: file, line: line)
        cell.store(newValue.seamAtomicBits, ordering: .sequentiallyConsistent)
    }

    /// Writes `newValue` and returns the value it replaced, in one indivisible step.
    @inlinable
    public func exchange(_ newValue: Value, file: StaticString = #fileID, line: UInt = #line) -> Value {
        willAccess(.readModifyWrite, file: file, line: line)
        return Value(seamAtomicBits: cell.exchange(newValue.seamAtomicBits, ordering: .sequentiallyConsistent))
    }

    /// Writes `desired` if the cell holds `expected` (compared by bits), in one indivisible
    /// step. Returns whether it wrote and the value it found.
    @inlinable
    public func compareExchange(
        expected: Value,
        desired: Value,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        let (exchanged, original) = cell.compareExchange(
            expected: expected.seamAtomicBits,
            desired: desired.seamAtomicBits,
            ordering: .sequentiallyConsistent
        )
        return (exchanged, Value(seamAtomicBits: original))
    }

    @inlinable
    func willAccess(_ access: SeamAtomicAccess, file: StaticString, line: UInt) {
        Seam.route({ $0.willAccessAtomic(self, access, at: SeamLocation(fileID: file, line: line)) }, otherwise: {})
    }
}

extension SeamAtomic {
    /// Replaces the value with `transform(value)` in one indivisible step, however many
    /// threads update at once (no update is lost), and returns what `transform` returned.
    /// `transform` may run more than once under contention; it must have no side effects.
    @inlinable
    public func update<Result>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: (inout Value) -> Result
    ) -> (result: Result, oldValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        var current = cell.load(ordering: .relaxed)
        while true {
            let oldValue = Value(seamAtomicBits: current)
            var proposed = oldValue
            let result = transform(&proposed)
            let (exchanged, original) = cell.compareExchange(
                expected: current,
                desired: proposed.seamAtomicBits,
                ordering: .sequentiallyConsistent
            )
            if exchanged { return (result, oldValue) }
            current = original
        }
    }
}

extension SeamAtomic where Value: FixedWidthInteger {
    /// Adds `operand` with wrapping arithmetic; returns the new value.
    @discardableResult
    @inlinable
    public func add(_ operand: Value, file: StaticString = #fileID, line: UInt = #line) -> Value {
        update(file: file, line: line) { value in
            value &+= operand
            return value
        }.result
    }

    /// Sets the bits of `mask`; returns the value before.
    @discardableResult
    @inlinable
    public func setBits(_ mask: Value, file: StaticString = #fileID, line: UInt = #line) -> Value {
        update(file: file, line: line) { $0 |= mask }.oldValue
    }
}

extension SeamAtomicValue where Self: FixedWidthInteger {
    @inlinable
    public init(seamAtomicBits: UInt64) { self.init(truncatingIfNeeded: seamAtomicBits) }
    @inlinable
    public var seamAtomicBits: UInt64 { UInt64(truncatingIfNeeded: self) }
}

extension SeamAtomicValue where Self: RawRepresentable, RawValue: SeamAtomicValue {
    @inlinable
    public init(seamAtomicBits: UInt64) {
        guard let value = Self(rawValue: RawValue(seamAtomicBits: seamAtomicBits)) else {
            preconditionFailure("\(Self.self) has no value for the bits \(seamAtomicBits) stored in a SeamAtomic")
        }
        self = value
    }
    @inlinable
    public var seamAtomicBits: UInt64 { rawValue.seamAtomicBits }
}

extension Int: SeamAtomicValue {}
extension Int8: SeamAtomicValue {}
extension Int16: SeamAtomicValue {}
extension Int32: SeamAtomicValue {}
extension Int64: SeamAtomicValue {}
extension UInt: SeamAtomicValue {}
extension UInt8: SeamAtomicValue {}
extension UInt16: SeamAtomicValue {}
extension UInt32: SeamAtomicValue {}
extension UInt64: SeamAtomicValue {}

extension Bool: SeamAtomicValue {
    @inlinable
    public init(seamAtomicBits: UInt64) { self = seamAtomicBits != 0 }
    @inlinable
    public var seamAtomicBits: UInt64 { self ? 1 : 0 }
}
