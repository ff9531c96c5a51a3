import CShim

/// What the stall check reads of an OS thread: whether the kernel would run it now, and the
/// CPU time it has used.
struct ThreadActivity: Equatable {
    /// Running, or ready to run and waiting for a CPU; not sleeping, waiting or stopped.
    var isRunnable: Bool
    /// User and system CPU time used so far.
    var cpuTime: Duration

    /// The activity of the OS thread `systemID` (as `cshim_current_thread_system_id` named
    /// it); `nil` when it cannot be read.
    static func read(systemID: UInt64) -> ThreadActivity? {
        var runnable: Int32 = 0
        var nanoseconds: UInt64 = 0
        guard cshim_thread_activity(systemID, &runnable, &nanoseconds) == 0 else { return nil }
        return ThreadActivity(isRunnable: runnable != 0, cpuTime: .nanoseconds(Int64(clamping: nanoseconds)))
    }
}

/// Decides when the running thread, taking no step, has stalled: from what its OS thread
/// does, not from wall time alone, so that a thread a loaded machine leaves waiting for a
/// CPU is never called stalled. Two kinds of time count towards the timeout: wall time in
/// which the thread was seen not runnable, less the CPU it used meanwhile (it waits for
/// something outside the seam: blocked), and CPU time it used (it computes or spins without
/// reaching a scheduling point: busy). Time it was runnable without a CPU counts for nothing.
/// When the thread's activity cannot be read, wall time counts, as blocked.
///
/// A value: the caller reads the clock and the thread, and passes them in.
struct StallWatch {
    /// How a thread stalled.
    enum Stall: Equatable {
        /// Mostly waited, not runnable, for `seconds` (wall time and CPU time) since its last step.
        case blocked(seconds: Double)
        /// Mostly used a CPU, for `seconds` (CPU time and wall time waiting) since its last step.
        case busy(seconds: Double)

        /// The time counted towards the timeout.
        var seconds: Double {
            switch self {
            case .blocked(let seconds), .busy(let seconds): seconds
            }
        }
    }

    /// What a check found.
    enum Verdict: Equatable {
        /// A step was taken, or another thread runs, since the last check: the count starts again.
        case progressed
        /// No step, and the thread is runnable: it computes, or waits for a CPU.
        case runnable
        /// No step, and the thread waits for something.
        case waiting
        /// The thread has been blocked or busy for the timeout.
        case stalled(Stall)
    }

    let timeout: Duration
    private var steps: Int?
    private var thread = 0
    private var lastCheck: Duration = .zero
    private var lastCPU: Duration?
    private var blocked: Duration = .zero
    private var busy: Duration = .zero

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Notes a check at `now` (on any monotonic scale): `steps` taken so far, `thread` the
    /// running thread, and what its OS thread does (`nil` when unknown).
    mutating func check(steps: Int, thread: Int, activity: ThreadActivity?, now: Duration) -> Verdict {
        defer {
            lastCheck = now
            lastCPU = activity?.cpuTime
        }
        guard steps == self.steps, thread == self.thread else {
            self.steps = steps
            self.thread = thread
            blocked = .zero
            busy = .zero
            return .progressed
        }
        let used = activity.flatMap { activity in lastCPU.map { max(.zero, activity.cpuTime - $0) } } ?? .zero
        busy += used
        let runnable = activity?.isRunnable == true
        if !runnable {
            blocked += max(.zero, now - lastCheck - used)
        }
        guard blocked + busy >= timeout else { return runnable ? .runnable : .waiting }
        let seconds = (blocked + busy).seconds
        return .stalled(busy > blocked ? .busy(seconds: seconds) : .blocked(seconds: seconds))
    }
}
