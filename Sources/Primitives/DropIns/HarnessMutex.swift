import Synchronization

/// A drop-in for `Synchronization.Mutex` whose every acquisition is a scheduling point under
/// a harness, and which is a `Synchronization.Mutex` in production.
///
/// Same API: `init(_:)`, `withLock(_:)`, `withLockIfAvailable(_:)`, `~Copyable`,
/// `Sendable` for any value (the value goes in and out `sending`). Switch existing code with
/// one type alias (see the README, "Drop-ins"):
///
/// ```swift
/// #if HARNESS
/// typealias Mutex = Primitives.HarnessMutex
/// #else
/// typealias Mutex = Synchronization.Mutex
/// #endif
/// ```
///
/// Production (no controller on the thread): `withLock` is `Mutex.withLock` behind one
/// relaxed load and a predictable branch. Under a controller: the controller models the lock
/// (it decides who gets it when, and reports deadlocks), then the value is reached through
/// the real `Mutex`, which is then always free.
///
/// Not guaranteed: a mutex held by an uncontrolled thread while a controlled one takes it is
/// outside the model (the controlled thread would block outside the harness); use a mutex
/// either inside a scenario or outside it.
@frozen
public struct HarnessMutex<Value: ~Copyable>: ~Copyable {
    @usableFromInline
    let base: Mutex<Value>
    @usableFromInline
    let model: SeamModelSlot<SeamMutex>

    /// Creates a mutex protecting `initialValue`.
    @inlinable
    public init(_ initialValue: consuming sending Value) {
        base = Mutex(initialValue)
        model = SeamModelSlot()
    }

    /// Runs `body` with exclusive access to the value, waiting while another thread holds
    /// the lock, and returns what `body` returns. The lock is released however `body` exits.
    /// A scheduling point under a harness.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        guard let controller = Seam.controllerForCurrentThread() else {
            return try base.withLock(body)
        }
        let mutex = modelMutex()
        let location = SeamLocation(fileID: file, line: line)
        controller.lock(mutex, at: location)
        defer { controller.unlock(mutex, at: location) }
        return try base.withLock(body)
    }

    /// Runs `body` with exclusive access to the value if the lock is free now, and returns
    /// what it returns; returns `nil` without running it otherwise. A scheduling point under
    /// a harness, which explores both outcomes where another thread could hold the lock.
    @inlinable
    public borrowing func withLockIfAvailable<Result: ~Copyable, E: Error>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        guard let controller = Seam.controllerForCurrentThread() else {
            return try base.withLockIfAvailable(body)
        }
        let mutex = modelMutex()
        let location = SeamLocation(fileID: file, line: line)
        guard controller.tryLock(mutex, at: location) else { return nil }
        defer { controller.unlock(mutex, at: location) }
        return try base.withLock(body)
    }

    @usableFromInline
    borrowing func modelMutex() -> SeamMutex {
        model.model { SeamMutex() }
    }
}

extension HarnessMutex: @unchecked Sendable where Value: ~Copyable {}
