import Primitives

/// Seed defect 10: the seed's `AnyAtomic.updating` loads, transforms and stores in three
/// separate steps, so two concurrent updates can lose one. Each step alone is atomic.
public final class SeedAtomicBox<Value: Sendable>: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var value: Value

    /// A box holding `initialValue`.
    public init(_ initialValue: Value) { value = initialValue }

    /// Reads the value.
    public func load() -> Value { mutex.withLock { value } }

    /// Writes the value.
    public func store(_ newValue: Value) { mutex.withLock { value = newValue } }

    /// The defect: not atomic as a whole.
    public func update(_ transform: (inout Value) -> Void) {
        var copy = load()
        transform(&copy)
        store(copy)
    }
}
