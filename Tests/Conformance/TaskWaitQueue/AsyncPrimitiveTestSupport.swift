import Dispatch
@testable import Primitives
import Synchronization
import Testing

/// A task executor that only queues jobs; ``runUntilIdle()`` and ``run(until:)`` run them on
/// the calling thread. Tasks that prefer it run wholly on that thread, so their seam
/// operations reach the thread's controller (a `RecordingController`, say): the async
/// counterpart of `RecordingController.record`. Its own queue bypasses the seam on purpose,
/// so it records nothing itself; it is guarded by a pthread mutex, which ThreadSanitizer
/// follows under contention, unlike `Synchronization.Mutex`.
final class QueueingTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let jobsMutex = SeamMutex()
    private var jobs: [UnownedJob] = []
    /// Counts queued jobs, so that ``run(until:)`` can block until one arrives (from a
    /// Dispatch thread completing I/O, say).
    private let queued = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobsMutex.withLockDirectly { jobs.append(job) }
        queued.signal()
    }

    /// Runs queued jobs, oldest first, until none is left.
    func runUntilIdle() {
        while queued.wait(timeout: .now()) == .success { runOldestJob() }
    }

    /// Runs jobs as they arrive, blocking while none is queued, until `isFinished` holds.
    func run(until isFinished: () -> Bool) {
        while !isFinished() {
            queued.wait()
            runOldestJob()
        }
    }

    private func runOldestJob() {
        let job = jobsMutex.withLockDirectly { jobs.removeFirst() }
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}

/// Suspends the calling task, yielding, until `condition` holds: for states that the code
/// under test exposes only as counts (a task has queued), where there is no event to await.
func yieldUntil(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
}

/// The largest of the values a cell ever held, kept as bodies enter and leave.
final class ConcurrencyGauge: Sendable {
    private let current = Atomic(0)
    private let highest = Atomic(0)

    /// The most entered at once so far.
    var maximum: Int { highest.load(ordering: .sequentiallyConsistent) }

    /// Records one more inside; returns how many are inside now.
    @discardableResult
    func enter() -> Int {
        let now = current.add(1, ordering: .sequentiallyConsistent).newValue
        highest.max(now, ordering: .sequentiallyConsistent)
        return now
    }

    /// Records one fewer inside.
    func leave() {
        current.subtract(1, ordering: .sequentiallyConsistent)
    }
}

/// How a waiter's continuation ended up, in a test that drives a state machine by hand.
enum WaiterOutcome: Equatable {
    /// The waiter was resumed successfully: granted.
    case granted
    /// The waiter was resumed with `CancellationError`.
    case cancelled
    /// Nobody resumed the waiter (the scenario returned no resumption for it).
    case stillSuspended
}

/// Runs `scenario` with a real continuation and reports how the continuation ended up:
/// `scenario` returns the resumption it obtained for that continuation, if any.
func waiterOutcome(of scenario: (TaskWaitContinuation) -> TaskWaitResumption?) async -> WaiterOutcome {
    struct NotResumed: Error {}
    do {
        try await withCheckedThrowingContinuation { continuation in
            if let resumption = scenario(continuation) {
                resumption.perform()
            } else {
                continuation.resume(throwing: NotResumed())
            }
        }
        return .granted
    } catch is CancellationError {
        return .cancelled
    } catch {
        return .stillSuspended
    }
}
