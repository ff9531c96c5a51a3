import CShim
import Primitives
import Synchronization

/// The jobs enqueued for one execution from threads it does not control: they escaped the
/// harness (`Task {}`, `Task.detached`, `MainActor`, a foreign thread). Safe from any thread,
/// and held by whoever may still receive such a job (the execution's task executor) for as
/// long as it may, so a job that arrives after the execution ended is noted, not a crash.
final class ForeignJobs: Sendable {
    private let arrived = Atomic<Bool>(false)
    private let firstJob = DirectlyLocked<ForeignJob?>(nil)

    /// Notes `job`; the first one noted is the one reported.
    func note(_ job: ForeignJob) {
        firstJob.withLock { $0 = $0 ?? job }
        arrived.store(true, ordering: .releasing)
    }

    /// Whether a job was noted: ``first`` without its lock.
    var hasArrived: Bool { arrived.load(ordering: .acquiring) }

    /// The first job noted, if one was.
    var first: ForeignJob? {
        guard hasArrived else { return nil }
        return firstJob.withLock { $0 }
    }

    /// Waits for a job to arrive for as long as `wakeup` (read again every tick) says one may
    /// still come: not at all when none can; while one is underway, up to `cap`; and `grace`
    /// from when nothing is underway any more while one could. Returns whether one arrived.
    ///
    /// Time is counted in ticks, each a sleep of a millisecond: on a loaded machine, where a
    /// sleeping thread wakes late, the wait stretches as the thread that sends the job slows.
    func awaitOne(grace: Duration, cap: Duration, _ wakeup: () -> ForeignWakeup) -> Bool {
        let graceTicks = grace.wholeMilliseconds
        let capTicks = cap.wholeMilliseconds
        var ticks: Int64 = 0
        var graceLeft = graceTicks
        while !arrived.load(ordering: .acquiring) {
            switch wakeup() {
            case .impossible:
                return false
            case .underway:
                if ticks >= capTicks { return false }
                graceLeft = graceTicks
            case .possible:
                if graceLeft <= 0 { return false }
                graceLeft -= 1
            }
            ticks += 1
            _ = cshim_sleep_until_monotonic(cshim_monotonic_now_ns() + 1_000_000)
        }
        return true
    }
}

/// What may still wake the tasks of an execution once nothing it controls can run, and so
/// how long it waits for a job from outside (``ForeignJobs/awaitOne(grace:cap:_:)``) before
/// it reports them deadlocked. A job from outside is an escape, which fails the execution;
/// the wait is for reporting the escape rather than the deadlock it leaves.
enum ForeignWakeup: Equatable {
    /// Every task that has not ended waits for another of them to end: nothing outside the
    /// execution can wake any, and the deadlock is reported at once.
    case impossible
    /// A task waits on what a thread outside the harness may resume (a continuation, its
    /// task group, a task the execution does not run) or on what the harness cannot read:
    /// it gets the grace.
    case possible
    /// A task runs, or is queued, outside the execution (on the main thread, an executor of
    /// its own, or on its way back from a thread that resumed it): its job is waited for.
    case underway

    /// The wake-up of tasks doing `waits`, which the tasks at `held` may end.
    init(waits: [RuntimeTask.Wait], held: Set<UInt>) {
        if waits.contains(.underway) {
            self = .underway
            return
        }
        let waitForEachOther = waits.allSatisfy { wait in
            guard case .task(let address) = wait else { return false }
            return held.contains(address)
        }
        self = waitForEachOther && !waits.isEmpty ? .impossible : .possible
    }
}

/// A job enqueued from a thread an execution does not control, as the thread saw it.
struct ForeignJob: Sendable {
    /// The thread's name, `nil` when it has none.
    let thread: String?
    let isMainThread: Bool
    /// The runtime's ID of the job's task, 0 for a job of no task.
    let taskRuntimeID: UInt64
}
