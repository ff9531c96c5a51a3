import CShim
import Foundation

/// Where a thread stalled outside the seam, read from its stack: what it waits in, the
/// code under test that called it, and what to use instead.
struct StallDiagnosis {
    /// The stack, innermost frame first, as readable function names.
    let frames: [String]

    /// Reads the stack of the thread whose handle is `thread`; `nil` when it could not be
    /// captured within a second.
    init?(thread: UInt) {
        var addresses = [UnsafeMutableRawPointer?](repeating: nil, count: 64)
        let count = Int(cshim_capture_thread_stack(thread, &addresses, Int32(addresses.count), 1_000))
        guard count > 0 else { return nil }
        frames = addresses.prefix(count).compactMap { address in address.flatMap(Self.name(of:)) }
    }

    init(frames: [String]) {
        self.frames = frames
    }

    /// The sentence for the report of `stall`: for a blocked thread where it waits and why
    /// that stalls it, for a busy one where it computes; from `stack` when its stack could
    /// be read.
    static func explanation(of stall: StallWatch.Stall, stack: StallDiagnosis?) -> String {
        switch stall {
        case .blocked:
            return stack?.explanation ?? "blocked outside the seam: in code the harness does not control"
        case .busy:
            let place = stack?.frames.first { !isHarnessOrRuntime($0) }.map { " (in \($0))" } ?? ""
            return "busy outside the seam\(place): computing on a CPU, not waiting: an endless loop, or a spin on "
                + "state the harness does not see; spin with Seam.yield, or wait on a SeamCondition"
        }
    }

    /// The sentence for the report of a blocked thread: where it waits and why that stalls it.
    var explanation: String {
        let caller = frames.first { frame in !Self.isHarnessOrRuntime(frame) && Self.blocker(in: frame) == nil }
        let place = caller.map { " (called from \($0))" } ?? ""
        guard let (frame, advice) = frames.lazy.compactMap({ frame in Self.blocker(in: frame).map { (frame, $0) } }).first else {
            return "blocked outside the seam\(place): in code the harness does not control"
        }
        return "blocked in \(frame)\(place): \(advice)"
    }

    /// What a frame waits in, with what to use instead, for the waits the harness knows.
    static func blocker(in frame: String) -> String? {
        blockers.first { names, _ in names.contains { frame.contains($0) } }?.advice
    }

    private static let blockers: [(names: [String], advice: String)] = [
        (["Synchronization.Mutex", "_MutexHandle"], "a Synchronization.Mutex, which the harness does not control; use SeamMutex"),
        (["NSLock", "NSRecursiveLock", "NSCondition"], "a Foundation lock, which the harness does not control; use SeamMutex and SeamCondition"),
        (["dispatch_sync", "DispatchQueue.sync", "_dispatch_sync"], "DispatchQueue.sync, which the harness does not control; use SeamMutex, or a task on the scenario's executor"),
        (["dispatch_semaphore_wait", "dispatch_group_wait", "DispatchSemaphore", "DispatchGroup"], "a Dispatch semaphore or group, which the harness does not control; use SeamCondition"),
        (["nanosleep", "usleep", "Thread.sleep"], "a real sleep; use Seam.sleep, or Task.sleep on SeamClock, which run on virtual time"),
        (["pthread_mutex_lock", "pthread_cond_wait", "pthread_cond_timedwait", "pthread_rwlock_", "os_unfair_lock"], "a lock taken outside the seam; use SeamMutex and SeamCondition"),
        (["read", "recv", "accept", "poll", "select", "epoll_wait", "waitpid"], "a blocking system call, which only a real thread can wait in"),
    ]

    /// Whether a frame belongs to the harness, the seam's plumbing, or the Swift runtime and
    /// C library, rather than to the code under test.
    private static func isHarnessOrRuntime(_ frame: String) -> Bool {
        frame.hasPrefix("Harness.") || frame.contains(" in Harness.") || frame.hasPrefix("cshim_") || frame.hasPrefix("Primitives.Seam")
            || frame.hasPrefix("swift_") || frame.hasPrefix("_") || frame.hasPrefix("pthread_") || frame.hasPrefix("__")
            || blocker(in: frame) != nil || !frame.contains(".")
    }

    /// The function holding `address`, demangled when it is Swift's; `nil` when the
    /// dynamic linker does not know it.
    private static func name(of address: UnsafeMutableRawPointer) -> String? {
        guard let symbol = cshim_symbol_name(address) else { return nil }
        let mangled = String(cString: symbol)
        guard mangled.hasPrefix("$s") || mangled.hasPrefix("_$s"), let demangled = swift_demangle(symbol, mangled.utf8.count, nil, nil, 0) else {
            return mangled
        }
        defer { free(demangled) }
        return String(cString: demangled)
    }
}
