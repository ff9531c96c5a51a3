import CShim

/// The process-wide map from a ``ThreadLocalValue/fullKey`` to the POSIX key that stores
/// it, so that every instance with one full key shares one storage slot.
///
/// Keys are created on first use and never deleted: deleting one would leak the values
/// other threads still hold (`pthread_key_delete` calls no destructor), and a later
/// instance with the same full key must find them.
final class ThreadLocalKeyRegistry: @unchecked Sendable {
    /// The registry every ``ThreadLocalValue`` uses.
    static let shared = ThreadLocalKeyRegistry()

    private struct Registration {
        let storageKey: pthread_key_t
        let valueType: Any.Type
    }

    /// Locked directly, never through a controller: the registry is shared by every thread
    /// of the process, controlled or not, and is first used inside global initializers.
    private let mutex = SeamMutex()
    /// Guarded by `mutex`.
    private var registrations: [String: Registration] = [:]

    /// The POSIX key for `fullKey`, created (with a destructor that releases each thread's
    /// value at thread exit) when `fullKey` is new.
    ///
    /// Traps, in every build and with a message naming the mistake, when `fullKey` was
    /// registered with a type other than `valueType`, or no POSIX key is left to create.
    func storageKey(for fullKey: String, valueType: Any.Type) -> pthread_key_t {
        mutex.withLockDirectly {
            if let existing = registrations[fullKey] {
                guard ObjectIdentifier(existing.valueType) == ObjectIdentifier(valueType) else {
                    fatalError(
                        """
                        ThreadLocalValue: the key "\(fullKey)" already stores \
                        \(String(reflecting: existing.valueType)) \
                        and cannot also store \(String(reflecting: valueType)); give one of them a namespace
                        """
                    )
                }
                return existing.storageKey
            }
            var storageKey = pthread_key_t()
            let error = pthread_key_create(&storageKey, releaseThreadLocalBox)
            guard error != EAGAIN else {
                fatalError(
                    """
                    ThreadLocalValue: the process has no POSIX thread-specific key left for "\(fullKey)" \
                    (PTHREAD_KEYS_MAX); use fewer distinct keys
                    """
                )
            }
            check(error, "pthread_key_create")
            registrations[fullKey] = Registration(storageKey: storageKey, valueType: valueType)
            return storageKey
        }
    }
}

// The destructor of every key: runs on a thread that exits with a value stored, and
// releases the box (whatever its value type) that the storage retained.
#if canImport(Darwin)
private func releaseThreadLocalBox(_ box: UnsafeMutableRawPointer) {
    Unmanaged<AnyObject>.fromOpaque(box).release()
}
#elseif canImport(Glibc) || canImport(Musl)
private func releaseThreadLocalBox(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<AnyObject>.fromOpaque(box).release()
}
#else
#error("ThreadLocalValue: unsupported platform (needs POSIX thread-specific storage)")
#endif
