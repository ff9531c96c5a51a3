import Primitives

/// An atomic box whose `compareExchange` compares outside the lock: it loads the value,
/// compares it, and stores the desired value in a second step, so two concurrent exchanges
/// from the same expected value can both succeed. Every other operation is one step, so a
/// scenario of updates alone (``AtomicBoxScenarios/noLostUpdates(_:)``) never sees it.
public final class CheckThenActAtomicBox<Value: Sendable & Equatable>: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var value: Value

    /// A box holding `initialValue`.
    public init(_ initialValue: Value) { value = initialValue }

    /// Reads the value.
    public func load() -> Value { mutex.withLock { value } }

    /// Writes the value.
    public func store(_ newValue: Value) { mutex.withLock { value = newValue } }

    /// Transforms the value in one step.
    @discardableResult
    public func update<Result>(_ transform: (inout Value) -> Result) -> Result {
        mutex.withLock { transform(&value) }
    }

    /// The defect: the comparison and the store are two steps.
    public func compareExchange(expected: Value, desired: Value) -> (exchanged: Bool, original: Value) {
        let original = load()
        guard original == expected else { return (false, original) }
        store(desired)
        return (true, original)
    }

    /// Returns the value and leaves `nil`, in one step.
    public func take<Wrapped>() -> Value where Value == Wrapped? {
        mutex.withLock {
            defer { value = nil }
            return value
        }
    }
}

extension CheckThenActAtomicBox: IntegerUpdating where Value == Int {
    public func update(_ transform: (inout Int) -> Void) {
        mutex.withLock { transform(&value) }
    }
}
