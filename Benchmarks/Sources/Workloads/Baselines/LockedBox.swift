/// A value behind a `pthread_mutex_t`, with no seam: the box `AtomicBox` is compared with.
final class LockedBox<Value: Sendable>: BenchmarkBox, @unchecked Sendable {
    private let mutex = PthreadMutex()
    /// Guarded by `mutex`.
    private var value: Value

    init(_ initialValue: Value) {
        value = initialValue
    }

    @inline(__always)
    func boxLoad() -> Value {
        mutex.withLock { value }
    }

    @inline(__always)
    func boxUpdate(_ body: (inout Value) -> Void) {
        mutex.withLock { body(&value) }
    }
}
