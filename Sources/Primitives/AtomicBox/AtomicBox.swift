/// A value of any `Sendable` type that threads read and replace atomically: every operation
/// sees and leaves a whole value, and ``update(file:line:_:)`` is an indivisible
/// read-modify-write, so concurrent updates are never lost.
///
/// The value is guarded by a ``SeamMutex``, so a harness sees every operation as a scheduling
/// point. It is not lock-free: an operation waits while another thread holds the box. For
/// values that fit in 64 bits, ``SeamAtomic`` is lock-free and faster.
///
/// Operations must not be nested on the same box (calling the box from inside
/// ``update(file:line:_:)``): the mutex is not recursive, and debug builds trap there.
public final class AtomicBox<Value: Sendable>: Sendable {
    @usableFromInline
    let mutex = SeamMutex()

    /// Read and written only while `mutex` is held.
    @usableFromInline
    nonisolated(unsafe) var value: Value

    /// Creates a box holding `initialValue`.
    public init(_ initialValue: Value) {
        value = initialValue
    }

    /// Returns the value.
    @inlinable
    public func load(file: StaticString = #fileID, line: UInt = #line) -> Value {
        mutex.withLock(file: file, line: line) { value }
    }

    /// Replaces the value with `newValue`.
    @inlinable
    public func store(_ newValue: Value, file: StaticString = #fileID, line: UInt = #line) {
        mutex.withLock(file: file, line: line) { value = newValue }
    }

    /// Replaces the value with `newValue` and returns the value it replaced, in one
    /// indivisible step.
    @inlinable
    public func exchange(_ newValue: Value, file: StaticString = #fileID, line: UInt = #line) -> Value {
        mutex.withLock(file: file, line: line) {
            let oldValue = value
            value = newValue
            return oldValue
        }
    }

    /// Runs `body` on the value in one indivisible step: no other operation on the box
    /// happens between its read and its write, so no update is lost. Returns what `body`
    /// returned; the value keeps whatever `body` left in it, also when `body` throws.
    ///
    /// `body` runs exactly once, holding the box's lock and with POSIX cancellation of the
    /// calling thread disabled: a thread killed with `pthread_cancel` while inside `body`
    /// (see ``IOThread/kill()``) finishes the update, releases the lock, and dies at its next
    /// cancellation point, so the box is never left locked. Keep `body` short and do not
    /// block in it: every other operation on the box waits for it.
    @inlinable
    @discardableResult
    public func update<Result, Failure: Error>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try ThreadCancellation.withDisabled { () throws(Failure) -> Result in
            try mutex.withLock(file: file, line: line) { () throws(Failure) -> Result in
                try body(&value)
            }
        }
    }
}

extension AtomicBox where Value: Equatable {
    /// Replaces the value with `desired` if it equals `expected` (compared with `==`), in one
    /// indivisible step. Returns whether it did and the value the box held before.
    @inlinable
    public func compareExchange(
        expected: Value,
        desired: Value,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (exchanged: Bool, original: Value) {
        mutex.withLock(file: file, line: line) {
            let original = value
            guard original == expected else { return (false, original) }
            value = desired
            return (true, original)
        }
    }
}

extension AtomicBox {
    /// Returns the value and leaves `nil` in its place, in one indivisible step: of several
    /// threads taking at once, exactly one gets a non-`nil` value that was stored.
    @inlinable
    public func take<Wrapped>(file: StaticString = #fileID, line: UInt = #line) -> Value where Value == Wrapped? {
        exchange(nil, file: file, line: line)
    }
}

extension AtomicBox: CustomStringConvertible {
    /// `AtomicBox(` and the description of the value at the moment it was read `)`.
    public var description: String { "AtomicBox(\(load()))" }
}
