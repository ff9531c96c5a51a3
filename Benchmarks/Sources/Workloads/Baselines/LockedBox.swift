/// A value behind a `pthread_mutex_t`, with no seam: the box `AtomicBox` is compared with.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let mutex = PthreadMutex()
    /// Guarded by `mutex`.
    private var value: Value

    init(_ initialValue: Value) {
        value = initialValue
    }

    @inline(__always)
    func load() -> Value {
        mutex.withLock { value }
    }

    @inline(__always)
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&value) }
    }
}
