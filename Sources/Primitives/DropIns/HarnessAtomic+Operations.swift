import Synchronization

// `Atomic`'s operations are declared once per storage size; so are the drop-in's.

extension HarnessAtomic where Value.AtomicRepresentation == _Atomic8BitStorage {
    /// Reads the value.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func load(ordering: AtomicLoadOrdering, file: StaticString = #fileID, line: UInt = #line) -> Value
    {
        willAccess(.load, file: file, line: line)
        return base.load(ordering: ordering)
    }

    /// Writes `desired`.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func store(
        _ desired: consuming Value, ordering: AtomicStoreOrdering, file: StaticString = #fileID, line: UInt = #line
    ) {
        willAccess(.store, file: file, line: line)
        base.store(desired, ordering: ordering)
    }

    /// Writes `desired` and returns the value it replaced, in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func exchange(
        _ desired: consuming Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> Value {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.exchange(desired, ordering: ordering)
    }

    /// Writes `desired` if the cell holds `expected`, in one indivisible step; returns
    /// whether it wrote and the value it found.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func compareExchange(
        expected: consuming Value,
        desired: consuming Value,
        ordering: AtomicUpdateOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.compareExchange(expected: expected, desired: desired, ordering: ordering)
    }

    /// ``compareExchange(expected:desired:ordering:file:line:)`` with one ordering for success
    /// and one for failure.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func compareExchange(
        expected: consuming Value,
        desired: consuming Value,
        successOrdering: AtomicUpdateOrdering,
        failureOrdering: AtomicLoadOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.compareExchange(
            expected: expected, desired: desired, successOrdering: successOrdering, failureOrdering: failureOrdering)
    }

    /// Like ``compareExchange(expected:desired:ordering:file:line:)``, but may fail
    /// spuriously in production (as `Atomic.weakCompareExchange`); under a harness it fails
    /// only when the value differs.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func weakCompareExchange(
        expected: consuming Value,
        desired: consuming Value,
        ordering: AtomicUpdateOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.weakCompareExchange(expected: expected, desired: desired, ordering: ordering)
    }
}

extension HarnessAtomic where Value.AtomicRepresentation == _Atomic16BitStorage {
    /// Reads the value.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func load(ordering: AtomicLoadOrdering, file: StaticString = #fileID, line: UInt = #line) -> Value
    {
        willAccess(.load, file: file, line: line)
        return base.load(ordering: ordering)
    }

    /// Writes `desired`.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func store(
        _ desired: consuming Value, ordering: AtomicStoreOrdering, file: StaticString = #fileID, line: UInt = #line
    ) {
        willAccess(.store, file: file, line: line)
        base.store(desired, ordering: ordering)
    }

    /// Writes `desired` and returns the value it replaced, in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func exchange(
        _ desired: consuming Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> Value {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.exchange(desired, ordering: ordering)
    }

    /// Writes `desired` if the cell holds `expected`, in one indivisible step; returns
    /// whether it wrote and the value it found.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func compareExchange(
        expected: consuming Value,
        desired: consuming Value,
        ordering: AtomicUpdateOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.compareExchange(expected: expected, desired: desired, ordering: ordering)
    }

    /// ``compareExchange(expected:desired:ordering:file:line:)`` with one ordering for success
    /// and one for failure.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func compareExchange(
        expected: consuming Value,
        desired: consuming Value,
        successOrdering: AtomicUpdateOrdering,
        failureOrdering: AtomicLoadOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.compareExchange(
            expected: expected, desired: desired, successOrdering: successOrdering, failureOrdering: failureOrdering)
    }

    /// Like ``compareExchange(expected:desired:ordering:file:line:)``, but may fail
    /// spuriously in production (as `Atomic.weakCompareExchange`); under a harness it fails
    /// only when the value differs.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func weakCompareExchange(
        expected: consuming Value,
        desired: consuming Value,
        ordering: AtomicUpdateOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.weakCompareExchange(expected: expected, desired: desired, ordering: ordering)
    }
}

extension HarnessAtomic where Value.AtomicRepresentation == _Atomic32BitStorage {
    /// Reads the value.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func load(ordering: AtomicLoadOrdering, file: StaticString = #fileID, line: UInt = #line) -> Value
    {
        willAccess(.load, file: file, line: line)
        return base.load(ordering: ordering)
    }

    /// Writes `desired`.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func store(
        _ desired: consuming Value, ordering: AtomicStoreOrdering, file: StaticString = #fileID, line: UInt = #line
    ) {
        willAccess(.store, file: file, line: line)
        base.store(desired, ordering: ordering)
    }

    /// Writes `desired` and returns the value it replaced, in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func exchange(
        _ desired: consuming Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> Value {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.exchange(desired, ordering: ordering)
    }

    /// Writes `desired` if the cell holds `expected`, in one indivisible step; returns
    /// whether it wrote and the value it found.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func compareExchange(
        expected: consuming Value,
        desired: consuming Value,
        ordering: AtomicUpdateOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.compareExchange(expected: expected, desired: desired, ordering: ordering)
    }

    /// ``compareExchange(expected:desired:ordering:file:line:)`` with one ordering for success
    /// and one for failure.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func compareExchange(
        expected: consuming Value,
        desired: consuming Value,
        successOrdering: AtomicUpdateOrdering,
        failureOrdering: AtomicLoadOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.compareExchange(
            expected: expected, desired: desired, successOrdering: successOrdering, failureOrdering: failureOrdering)
    }

    /// Like ``compareExchange(expected:desired:ordering:file:line:)``, but may fail
    /// spuriously in production (as `Atomic.weakCompareExchange`); under a harness it fails
    /// only when the value differs.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func weakCompareExchange(
        expected: consuming Value,
        desired: consuming Value,
        ordering: AtomicUpdateOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.weakCompareExchange(expected: expected, desired: desired, ordering: ordering)
    }
}

extension HarnessAtomic where Value.AtomicRepresentation == _Atomic64BitStorage {
    /// Reads the value.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func load(ordering: AtomicLoadOrdering, file: StaticString = #fileID, line: UInt = #line) -> Value
    {
        willAccess(.load, file: file, line: line)
        return base.load(ordering: ordering)
    }

    /// Writes `desired`.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func store(
        _ desired: consuming Value, ordering: AtomicStoreOrdering, file: StaticString = #fileID, line: UInt = #line
    ) {
        willAccess(.store, file: file, line: line)
        base.store(desired, ordering: ordering)
    }

    /// Writes `desired` and returns the value it replaced, in one indivisible step.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func exchange(
        _ desired: consuming Value, ordering: AtomicUpdateOrdering, file: StaticString = #fileID, line: UInt = #line
    ) -> Value {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.exchange(desired, ordering: ordering)
    }

    /// Writes `desired` if the cell holds `expected`, in one indivisible step; returns
    /// whether it wrote and the value it found.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func compareExchange(
        expected: consuming Value,
        desired: consuming Value,
        ordering: AtomicUpdateOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.compareExchange(expected: expected, desired: desired, ordering: ordering)
    }

    /// ``compareExchange(expected:desired:ordering:file:line:)`` with one ordering for success
    /// and one for failure.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func compareExchange(
        expected: consuming Value,
        desired: consuming Value,
        successOrdering: AtomicUpdateOrdering,
        failureOrdering: AtomicLoadOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.compareExchange(
            expected: expected, desired: desired, successOrdering: successOrdering, failureOrdering: failureOrdering)
    }

    /// Like ``compareExchange(expected:desired:ordering:file:line:)``, but may fail
    /// spuriously in production (as `Atomic.weakCompareExchange`); under a harness it fails
    /// only when the value differs.
    @_semantics("atomics.requires_constant_orderings") @_alwaysEmitIntoClient @_transparent
    public borrowing func weakCompareExchange(
        expected: consuming Value,
        desired: consuming Value,
        ordering: AtomicUpdateOrdering,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        willAccess(.readModifyWrite, file: file, line: line)
        return base.weakCompareExchange(expected: expected, desired: desired, ordering: ordering)
    }
}
