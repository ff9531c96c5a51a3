import Synchronization

/// Where a drop-in keeps the object a controller knows it by, created on its first use
/// under a controller and never in production.
///
/// A controller models a lock (or an atomic cell) by the identity of a ``SeamMutex`` (or of
/// any object). Drop-ins such as ``HarnessMutex`` are `~Copyable` structs with no identity
/// of their own and must cost what `Synchronization.Mutex` costs, so they hold this slot: one
/// word, read only on a controlled thread, released when the drop-in is destroyed.
@usableFromInline
struct SeamModelSlot<Model: AnyObject>: ~Copyable {
    /// The retained model's address, or 0 until the first controlled use.
    @usableFromInline
    let address: Atomic<UInt>

    @inlinable
    init() { address = Atomic(0) }

    deinit {
        let model = address.load(ordering: .acquiring)
        if model != 0 {
            Unmanaged<Model>.fromOpaque(UnsafeRawPointer(bitPattern: model)!).release()
        }
    }

    /// The model, created with `make` if this is its first use. Threads that race to create
    /// it agree on one.
    @usableFromInline
    borrowing func model(_ make: () -> Model) -> Model {
        let existing = address.load(ordering: .acquiring)
        if existing != 0 {
            return Unmanaged<Model>.fromOpaque(UnsafeRawPointer(bitPattern: existing)!).takeUnretainedValue()
        }
        let created = Unmanaged.passRetained(make())
        let proposed = UInt(bitPattern: created.toOpaque())
        let (exchanged, original) = address.compareExchange(
            expected: 0, desired: proposed, ordering: .acquiringAndReleasing)
        if exchanged { return created.takeUnretainedValue() }
        created.release()
        return Unmanaged<Model>.fromOpaque(UnsafeRawPointer(bitPattern: original)!).takeUnretainedValue()
    }
}

/// The identity a controller knows a ``HarnessAtomic`` by.
@usableFromInline
final class SeamAtomicIdentity {
    @usableFromInline
    init() {}
}
