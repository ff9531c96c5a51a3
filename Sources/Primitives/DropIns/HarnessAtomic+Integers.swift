import Synchronization

/// The read-modify-write operations `Atomic` offers on integers.
public enum HarnessAtomicIntegerOperation: Sendable {
    case wrappingAdd, wrappingSubtract, bitwiseAnd, bitwiseOr, bitwiseXor
}

/// An integer type whose `Atomic` has the integer operations: the standard library declares
/// them on each type separately, and this protocol lets ``HarnessAtomic`` forward to them.
/// The integer types of the standard library conform; it is not meant for other types.
public protocol HarnessAtomicInteger: AtomicRepresentable, FixedWidthInteger {
    /// Performs `operation` with `operand` on `atomic`; returns the values before and after.
    static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: Self,
        to atomic: borrowing Atomic<Self>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: Self, newValue: Self)
}

extension Int: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: Int,
        to atomic: borrowing Atomic<Int>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: Int, newValue: Int) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}

extension Int8: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: Int8,
        to atomic: borrowing Atomic<Int8>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: Int8, newValue: Int8) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}

extension Int16: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: Int16,
        to atomic: borrowing Atomic<Int16>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: Int16, newValue: Int16) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}

extension Int32: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: Int32,
        to atomic: borrowing Atomic<Int32>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: Int32, newValue: Int32) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}

extension Int64: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: Int64,
        to atomic: borrowing Atomic<Int64>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: Int64, newValue: Int64) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}

extension UInt: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: UInt,
        to atomic: borrowing Atomic<UInt>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: UInt, newValue: UInt) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}

extension UInt8: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: UInt8,
        to atomic: borrowing Atomic<UInt8>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: UInt8, newValue: UInt8) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}

extension UInt16: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: UInt16,
        to atomic: borrowing Atomic<UInt16>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: UInt16, newValue: UInt16) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}

extension UInt32: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: UInt32,
        to atomic: borrowing Atomic<UInt32>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: UInt32, newValue: UInt32) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}

extension UInt64: HarnessAtomicInteger {
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public static func apply(
        _ operation: HarnessAtomicIntegerOperation,
        _ operand: UInt64,
        to atomic: borrowing Atomic<UInt64>,
        ordering: AtomicUpdateOrdering
    ) -> (oldValue: UInt64, newValue: UInt64) {
        switch operation {
        case .wrappingAdd: atomic.wrappingAdd(operand, ordering: ordering)
        case .wrappingSubtract: atomic.wrappingSubtract(operand, ordering: ordering)
        case .bitwiseAnd: atomic.bitwiseAnd(operand, ordering: ordering)
        case .bitwiseOr: atomic.bitwiseOr(operand, ordering: ordering)
        case .bitwiseXor: atomic.bitwiseXor(operand, ordering: ordering)
        }
    }
}
