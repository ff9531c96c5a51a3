import CShim

/// A value of which every thread has its own copy, stored under a string key in POSIX
/// thread-specific storage (`pthread_getspecific`/`pthread_setspecific`).
///
/// The storage is named by ``fullKey``, `"namespace.key"` or just `key`. Every
/// `ThreadLocalValue` created with the same full key shares one storage slot: a value set
/// through one is read through the other, on the same thread. Use a namespace to keep
/// unrelated subsystems apart. All instances with one full key must agree on `Value`;
/// creating one with a different `Value` traps, naming both types.
///
/// A thread's value lives until it is replaced, removed, or the thread exits: at thread
/// exit it is released on the exiting thread, before `pthread_join` of that thread returns.
/// Values of threads that never exit (such as the main thread) are never released. A
/// thread spawned through the seam has left its controller by then, so a value whose
/// deinitializer uses the seam does so uncontrolled.
///
/// With an ``Instantiator``, the storage doubles as a per-thread cache: ``value()`` creates
/// the calling thread's value on first use, so expensive objects (formatters, buffers) are
/// shared by no two threads and need no lock.
///
/// Each distinct full key consumes one POSIX key for the life of the process (keys are
/// never deleted, so that values of other threads are not leaked and a later instance
/// finds them). A process has a fixed number of keys (`PTHREAD_KEYS_MAX`, 1024 with glibc,
/// shared with every other library); running out traps. Use a bounded set of full keys,
/// not keys made from data.
///
/// `Value` need not be `Sendable`: a value never leaves the thread that set it. Accessing
/// storage is not a seam operation (a thread's storage is not shared state); creating an
/// instance is, as it consults a process-wide registry under a ``SeamMutex``.
///
/// The accessors are unavailable from asynchronous code, where a task may resume on
/// another thread between two calls and silently see another thread's value.
public struct ThreadLocalValue<Value>: Sendable {
    /// Creates the calling thread's value when it has none, or returns `nil` to leave it
    /// without one. Called on whichever thread calls ``ThreadLocalValue/value()``.
    public typealias Instantiator = @Sendable () -> Value?

    /// The namespace given at creation, if any.
    public let namespace: String?
    /// The key given at creation.
    public let key: String
    /// The name of the storage: `"namespace.key"`, or `key` without a namespace.
    public let fullKey: String
    /// What ``value()`` calls when the calling thread has no value.
    public let instantiator: Instantiator?

    @usableFromInline
    let storageKey: pthread_key_t

    /// Creates access to the per-thread storage named `"namespace.key"` (or `key` when
    /// `namespace` is `nil`), creating the storage if this is the first instance with
    /// that name.
    ///
    /// Traps, in every build and with a message naming the mistake, when `key` is empty,
    /// `namespace` is given but empty, an instance with the same full key was created with
    /// a different `Value` type, or the process has no POSIX key left.
    public init(namespace: String? = nil, key: String, instantiator: Instantiator? = nil) {
        guard !key.isEmpty else { fatalError("ThreadLocalValue: the key must not be empty") }
        guard namespace?.isEmpty != true else {
            fatalError("ThreadLocalValue: the namespace must not be empty; pass nil for none")
        }
        self.namespace = namespace
        self.key = key
        fullKey = namespace.map { "\($0).\(key)" } ?? key
        self.instantiator = instantiator
        storageKey = ThreadLocalKeyRegistry.shared.storageKey(for: fullKey, valueType: Value.self)
    }

    /// The calling thread's value; when it has none, the value the ``instantiator``
    /// returns, which is stored for the thread first. Returns `nil` when the thread has no
    /// value and there is no instantiator or it returned `nil` (nothing is stored then,
    /// and the next call asks the instantiator again).
    ///
    /// The instantiator must not access this storage (through any instance) on the same
    /// thread.
    @available(*, noasync, message: "a task may resume on another thread, with another thread's value")
    @inlinable
    public func value() -> Value? {
        if let box = currentBox() { return box.value }
        guard let created = instantiator?() else { return nil }
        set(created)
        return created
    }

    /// The calling thread's value, or `nil` when it has none. Never calls the instantiator.
    @available(*, noasync, message: "a task may resume on another thread, with another thread's value")
    @inlinable
    public func cachedValue() -> Value? {
        currentBox()?.value
    }

    /// Stores `newValue` as the calling thread's value, releasing the value it replaces.
    @available(*, noasync, message: "a task may resume on another thread, with another thread's value")
    @inlinable
    public func set(_ newValue: Value) {
        replaceBox(with: Unmanaged.passRetained(ThreadLocalBox(newValue)).toOpaque())
    }

    /// Removes the calling thread's value, releasing it. Does nothing when there is none.
    @available(*, noasync, message: "a task may resume on another thread, with another thread's value")
    @inlinable
    public func remove() {
        replaceBox(with: nil)
    }

    @inlinable
    func currentBox() -> ThreadLocalBox<Value>? {
        Seam.willUseThreadSpecificState()
        guard let raw = pthread_getspecific(storageKey) else { return nil }
        return Unmanaged<ThreadLocalBox<Value>>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Installs `newBox` (retained, or `nil`) and only then releases the old box, so that a
    /// value whose deinitializer uses this storage finds it in a consistent state.
    @inlinable
    func replaceBox(with newBox: UnsafeMutableRawPointer?) {
        Seam.willUseThreadSpecificState()
        let oldBox = pthread_getspecific(storageKey)
        check(pthread_setspecific(storageKey, newBox), "pthread_setspecific")
        if let oldBox {
            Unmanaged<ThreadLocalBox<Value>>.fromOpaque(oldBox).release()
        }
    }
}

extension ThreadLocalValue where Value: AnyObject {
    /// Like ``value()``, without retaining the value: for hot paths on the calling thread
    /// that hold it only while it stays stored (until it is replaced or removed, or the
    /// thread exits). Always inlined: with the seam's check inside, the optimizer left it
    /// out of line, which made `ReadWriteCoordinator.read` some 15% slower.
    @available(*, noasync, message: "a task may resume on another thread, with another thread's value")
    @inlinable
    @inline(__always)
    func unretainedValue() -> Unmanaged<Value>? {
        Seam.willUseThreadSpecificState()
        guard let raw = pthread_getspecific(storageKey) else {
            return value().map { Unmanaged.passUnretained($0) }
        }
        return Unmanaged<ThreadLocalBox<Value>>.fromOpaque(raw)._withUnsafeGuaranteedRef { .passUnretained($0.value) }
    }
}

/// What thread-specific storage points at: one thread's value, retained once by the
/// storage and released by ``ThreadLocalValue/set(_:)``, ``ThreadLocalValue/remove()`` or
/// the key's destructor at thread exit.
@usableFromInline
final class ThreadLocalBox<Value> {
    @usableFromInline
    let value: Value

    @usableFromInline
    init(_ value: Value) { self.value = value }
}
