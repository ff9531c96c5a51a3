import CShim
import Foundation

extension StallDiagnosis {
    /// The diagnosis of `stall` from the stalled thread's stack, `frames` (innermost first;
    /// `nil` when it could not be read), and where the harness last saw it.
    init(_ stall: StallWatch.Stall, frames: [String]?, lastSeen: LastSeen?) {
        let frames = frames ?? []
        let code = frames.first { !Self.isHarnessOrRuntime($0) }
        switch stall {
        case .blocked:
            let blocked = frames.lazy.compactMap { frame in
                Self.blocker(in: frame).map { BlockedIn(frame: frame, blocker: $0) }
            }.first
            self.init(activity: .blocked, blockedIn: blocked, codeFrame: code, lastSeen: lastSeen)
        case .busy:
            self.init(activity: .busy, blockedIn: nil, codeFrame: code, lastSeen: lastSeen)
        }
    }

    /// The stack of the thread whose handle is `thread`, innermost frame first, as readable
    /// function names; `nil` when it could not be captured within a second.
    static func frames(ofThread thread: UInt) -> [String]? {
        var addresses = [UnsafeMutableRawPointer?](repeating: nil, count: 64)
        let count = Int(cshim_capture_thread_stack(thread, &addresses, Int32(addresses.count), 1_000))
        guard count > 0 else { return nil }
        return addresses.prefix(count).compactMap { address in address.flatMap(Self.name(of:)) }
    }

    /// The wait a frame is, for the waits the harness knows.
    static func blocker(in frame: String) -> Blocker? {
        blockers.first { names, _ in names.contains { frame.contains($0) } }?.blocker
    }

    /// The functions of each wait the harness knows.
    private static let blockers: [(names: [String], blocker: Blocker)] = [
        (["Synchronization.Mutex", "_MutexHandle"], .synchronizationMutex),
        (["NSLock", "NSRecursiveLock", "NSCondition"], .foundationLock),
        (["dispatch_sync", "DispatchQueue.sync", "_dispatch_sync"], .dispatchSync),
        (["dispatch_semaphore_wait", "dispatch_group_wait", "DispatchSemaphore", "DispatchGroup"], .dispatchSemaphore),
        (["nanosleep", "usleep", "Thread.sleep"], .realSleep),
        (
            ["pthread_mutex_lock", "pthread_cond_wait", "pthread_cond_timedwait", "pthread_rwlock_", "os_unfair_lock"],
            .lockOutsideTheSeam
        ),
        (["read", "recv", "accept", "poll", "select", "epoll_wait", "waitpid"], .systemCall)
    ]

    /// Whether a frame belongs to the harness, the seam's plumbing, or the Swift runtime and
    /// C library, rather than to the code under test.
    private static func isHarnessOrRuntime(_ frame: String) -> Bool {
        frame.hasPrefix("Harness.") || frame.contains(" in Harness.") || frame.hasPrefix("cshim_")
            || frame.hasPrefix("Primitives.Seam") || frame.hasPrefix("swift_") || frame.hasPrefix("_")
            || frame.hasPrefix("pthread_") || frame.hasPrefix("__")
            || blocker(in: frame) != nil || !frame.contains(".")
    }

    /// The function holding `address`, demangled when it is Swift's; `nil` when the
    /// dynamic linker does not know it.
    private static func name(of address: UnsafeMutableRawPointer) -> String? {
        guard let symbol = cshim_symbol_name(address) else { return nil }
        let mangled = String(cString: symbol)
        guard mangled.hasPrefix("$s") || mangled.hasPrefix("_$s"),
            let demangled = swift_demangle(symbol, mangled.utf8.count, nil, nil, 0)
        else {
            return mangled
        }
        defer { free(demangled) }
        return String(cString: demangled)
    }
}
