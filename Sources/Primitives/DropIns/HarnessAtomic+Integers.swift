import Synchronization

// `Atomic` declares its integer operations on each integer type separately; so does the
// drop-in, so that each forwards to the original with nothing in between.

extension HarnessAtomic where Value == Int {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}

extension HarnessAtomic where Value == Int8 {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}

extension HarnessAtomic where Value == Int16 {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}

extension HarnessAtomic where Value == Int32 {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}

extension HarnessAtomic where Value == Int64 {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}

extension HarnessAtomic where Value == UInt {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}

extension HarnessAtomic where Value == UInt8 {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}

extension HarnessAtomic where Value == UInt16 {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}

extension HarnessAtomic where Value == UInt32 {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}

extension HarnessAtomic where Value == UInt64 {
    /// Adds `operand` with wrapping arithmetic in one indivisible step; returns the values
    /// before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingAdd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingAdd(operand, ordering: ordering)
    }

    /// Subtracts `operand` with wrapping arithmetic in one indivisible step; returns the
    /// values before and after.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func wrappingSubtract(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.wrappingSubtract(operand, ordering: ordering)
    }

    /// Replaces the value with `value & operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseAnd(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseAnd(operand, ordering: ordering)
    }

    /// Replaces the value with `value | operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseOr(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseOr(operand, ordering: ordering)
    }

    /// Replaces the value with `value ^ operand` in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    @discardableResult
    public borrowing func bitwiseXor(
        _ operand: Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> (oldValue: Value, newValue: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.bitwiseXor(operand, ordering: ordering)
    }
}
