import Synchronization

/// A drop-in for `Synchronization.Atomic` whose every operation is a scheduling point under
/// a harness, and which is an `Atomic` in production.
///
/// Same API for what is commonly used: `init(_:)`, `load(ordering:)`,
/// `store(_:ordering:)`, `exchange(_:ordering:)`, `compareExchange(expected:desired:ordering:)`
/// (and with separate success and failure orderings), `weakCompareExchange`, and for the
/// integer types `wrappingAdd`, `wrappingSubtract`, `bitwiseAnd`, `bitwiseOr` and
/// `bitwiseXor`, on any `AtomicRepresentable` value. Switch with a type alias as for
/// ``HarnessMutex``.
///
/// Production: the `Atomic` operation behind one relaxed load and a predictable branch.
/// Under a controller, each operation is one indivisible step and the scheduler may switch
/// threads before it. Orderings weaker than sequentially consistent are not modelled: the
/// harness explores interleavings, not reorderings, so a bug that needs a weak-memory
/// reordering is not found (as in Shuttle; loom models them).
///
/// Not provided: `Bool`'s `logicalAnd`/`Or`/`Xor`, `min`/`max`, and the trapping `add`.
@frozen
public struct HarnessAtomic<Value: AtomicRepresentable>: ~Copyable {
    @usableFromInline
    let base: Atomic<Value>
    @usableFromInline
    let identity: SeamModelSlot<SeamAtomicIdentity>

    /// Creates a cell holding `initialValue`.
    @inlinable
    public init(_ initialValue: consuming Value) {
        base = Atomic(initialValue)
        identity = SeamModelSlot()
    }

    /// Tells the controller of the calling thread, if any, about an access about to happen.
    @inlinable
    borrowing func willAccess(_ access: SeamAtomicAccess, file: StaticString, line: UInt) {
        Seam.route(
            { controller in
                let cell = identity.model { SeamAtomicIdentity() }
                controller.willAccessAtomic(cell, access, at: SeamLocation(fileID: file, line: line))
            },
            otherwise: {})
    }
}

extension HarnessAtomic: @unchecked Sendable {}
