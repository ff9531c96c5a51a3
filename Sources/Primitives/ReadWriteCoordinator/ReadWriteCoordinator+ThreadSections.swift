extension ReadWriteCoordinator {
    /// How the calling thread is inside a coordinator.
    @usableFromInline
    enum Role {
        /// In a read block (its own `read(_:)`).
        case reading
        /// In a write block: its own `write(_:)`, or an enqueued block it runs.
        case writing
    }

    /// The coordinators the calling thread is inside, innermost last: what makes a nested
    /// `read` run at once instead of queueing behind a write that waits for the very
    /// thread asking. Nested calls run as part of the enclosing block and add no entry,
    /// except a read that comes in through the open gate, which adds one like its
    /// enclosing block's.
    @usableFromInline
    final class ThreadSections {
        /// Used by one thread only, and no access to it lasts while a block runs. Reached
        /// through an unretained reference, which the thread's storage keeps alive.
        @usableFromInline
        @exclusivity(unchecked) var entries: [(coordinator: ObjectIdentifier, role: Role)] = []

        /// The calling thread's sections, created on its first use of any coordinator and
        /// released when it exits. Unretained: they outlive any call on the thread.
        @available(*, noasync, message: "a task may resume on another thread")
        @inlinable
        static var current: Unmanaged<ThreadSections> {
            // The instantiator never returns nil, so neither does the storage.
            threadSections.unretainedValue()!
        }

        /// How the thread is inside `coordinator`, or `nil` when it is not.
        func role(in coordinator: ReadWriteCoordinator) -> Role? {
            let identifier = ObjectIdentifier(coordinator)
            return entries.last { $0.coordinator == identifier }?.role
        }

        /// Records the thread as inside `coordinator` in `role`, until the matching ``leave()``.
        @inlinable
        func enter(_ role: Role, _ coordinator: ReadWriteCoordinator) {
            entries.append((ObjectIdentifier(coordinator), role))
        }

        /// Ends the innermost section.
        @inlinable
        func leave() {
            entries.removeLast()
        }
    }

    /// How the calling thread is inside this coordinator, or `nil` when it is not.
    @available(*, noasync, message: "a task may resume on another thread")
    func roleOfCurrentThread() -> Role? {
        ThreadSections.current._withUnsafeGuaranteedRef { $0.role(in: self) }
    }

    /// Runs `body` with the calling thread recorded as inside this coordinator in `role`.
    @available(*, noasync, message: "a task may resume on another thread")
    @inlinable
    func run<Result, Failure: Error>(
        as role: Role,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let sections = ThreadSections.current
        sections._withUnsafeGuaranteedRef { $0.enter(role, self) }
        defer { sections._withUnsafeGuaranteedRef { $0.leave() } }
        return try body()
    }
}

/// One storage slot for every coordinator: a thread is inside few coordinators at a time,
/// and a key per coordinator would exhaust the process's POSIX keys.
@usableFromInline
let threadSections = ThreadLocalValue<ReadWriteCoordinator.ThreadSections>(
    namespace: "Primitives.ReadWriteCoordinator",
    key: "threadSections",
    instantiator: { ReadWriteCoordinator.ThreadSections() }
)
