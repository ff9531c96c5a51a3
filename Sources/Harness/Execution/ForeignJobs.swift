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

    /// The first job noted, if one was.
    var first: ForeignJob? {
        guard arrived.load(ordering: .acquiring) else { return nil }
        return firstJob.withLock { $0 }
    }

    /// Waits up to `grace` (real time, checked every millisecond) for a job to arrive;
    /// returns whether one did.
    func awaitOne(grace: Duration) -> Bool {
        let (seconds, attoseconds) = grace.components
        for _ in 0..<(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) {
            if arrived.load(ordering: .acquiring) { return true }
            _ = cshim_sleep_until_monotonic(cshim_monotonic_now_ns() + 1_000_000)
        }
        return false
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
