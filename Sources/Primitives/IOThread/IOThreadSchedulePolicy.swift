import CShim

/// The POSIX scheduling policy an ``IOThread`` runs under.
public enum IOThreadSchedulePolicy: Sendable, Hashable, CustomStringConvertible {
    /// Real-time first-in first-out (`SCHED_FIFO`), at the policy's lowest priority. Needs a
    /// privilege on Linux (root, `CAP_SYS_NICE` or an `RLIMIT_RTPRIO` above zero); without
    /// it ``IOThread/start()`` returns ``IOThreadStartResult/lackingPermissions``.
    case fifo
    /// Real-time round-robin (`SCHED_RR`), at the policy's lowest priority; needs the same
    /// privilege as ``fifo``.
    case roundRobin
    /// The thread inherits the scheduling policy and priority of the thread that starts it
    /// (normally `SCHED_OTHER`). The default.
    case other

    /// The policy's `SCHED_` constant.
    var posixValue: Int32 {
        switch self {
        case .fifo: Int32(SCHED_FIFO)
        case .roundRobin: Int32(SCHED_RR)
        case .other: Int32(SCHED_OTHER)
        }
    }

    public var description: String {
        switch self {
        case .fifo: "fifo"
        case .roundRobin: "round-robin"
        case .other: "other"
        }
    }
}
