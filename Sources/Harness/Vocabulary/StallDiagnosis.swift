import Primitives

/// Why a thread stalled outside the seam, as its stack showed it, and where the harness last
/// saw it (``ExecutionFailure/stalled(thread:seconds:diagnosis:)``). A value: `Report/` says it
/// in words, with what to use instead.
public struct StallDiagnosis: Sendable, Hashable, Codable {
    /// Whether the thread waited or computed while it was outside the seam.
    public enum Activity: Sendable, Hashable, Codable {
        /// It waited, in code the harness does not control.
        case blocked
        /// It computed on a CPU: an endless loop, or a spin on state the harness does not see.
        case busy
    }

    /// A wait the harness knows by its frames, each with a seam alternative the report names.
    public enum Blocker: Sendable, Hashable, Codable, CaseIterable {
        /// `Synchronization.Mutex`.
        case synchronizationMutex
        /// `NSLock`, `NSRecursiveLock` or `NSCondition`.
        case foundationLock
        /// `DispatchQueue.sync`.
        case dispatchSync
        /// A Dispatch semaphore or group.
        case dispatchSemaphore
        /// A real sleep: `nanosleep`, `usleep`, `Thread.sleep`.
        case realSleep
        /// A pthread mutex, condition or read-write lock, or an `os_unfair_lock`.
        case lockOutsideTheSeam
        /// A blocking system call: `read`, `recv`, `accept`, `poll`, `select`, `waitpid`.
        case systemCall
    }

    /// The frame a blocked thread waits in, and the wait the harness knows it for.
    public struct BlockedIn: Sendable, Hashable, Codable {
        /// The frame, as a readable function name.
        public let frame: String
        /// The wait it is.
        public let blocker: Blocker

        public init(frame: String, blocker: Blocker) {
            self.frame = frame
            self.blocker = blocker
        }
    }

    /// Where the harness last saw the thread at the seam.
    public enum LastSeen: Sendable, Hashable, Codable {
        /// Its last step, `kind`, at `location`.
        case step(OperationKind, at: SeamLocation)
        /// It was started at `location` and has taken no step since.
        case started(at: SeamLocation)
    }

    /// Whether it waited or computed.
    public let activity: Activity
    /// For a blocked thread, the frame it waits in and the wait it is, when the harness knows
    /// the wait.
    public let blockedIn: BlockedIn?
    /// The innermost frame of the code under test: what called the wait, or where the thread
    /// computes; `nil` when the stack could not be read or holds none.
    public let codeFrame: String?
    /// Where the harness last saw it; `nil` when it took no step with a location.
    public let lastSeen: LastSeen?

    public init(activity: Activity, blockedIn: BlockedIn?, codeFrame: String?, lastSeen: LastSeen?) {
        self.activity = activity
        self.blockedIn = blockedIn
        self.codeFrame = codeFrame
        self.lastSeen = lastSeen
    }
}
