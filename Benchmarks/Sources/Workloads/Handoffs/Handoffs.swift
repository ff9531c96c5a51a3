import CBenchmarkSupport

/// The hardware baseline for the harness: handing the processor from one OS thread to
/// another, measured in C.
public enum Handoffs {
    /// How two threads hand a turn to each other.
    public enum Mechanism: String, Sendable, CaseIterable {
        /// A futex word: one wake and one sleep in the kernel per handoff, no spinning.
        case futex = "futex handoff"
        /// A `pthread_mutex` and `pthread_cond` ping-pong.
        case condvar = "condvar ping-pong"
    }

    /// The CPU the calling thread runs on now (where the harness pins its threads), or -1.
    public static var currentCPU: Int32 { cbench_current_cpu() }

    /// The mean time of one one-way handoff over `rounds` round trips (two handoffs each)
    /// between two new threads, both pinned to `cpu` unless it is negative.
    public static func measure(_ mechanism: Mechanism, rounds: Int, cpu: Int32) -> Duration {
        let nanoseconds =
            switch mechanism {
            case .futex: cbench_futex_handoffs(UInt64(rounds), cpu)
            case .condvar: cbench_condvar_handoffs(UInt64(rounds), cpu)
            }
        return .nanoseconds(Int64(nanoseconds)) / (2 * rounds)
    }
}
