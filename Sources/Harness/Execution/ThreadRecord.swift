import Primitives

/// What the scheduler knows of one controlled thread.
struct ThreadRecord {
    enum State {
        /// At a scheduling point (or not yet arrived, for `.start`), waiting to perform `operation`.
        case ready(PendingOperation, SeamLocation?)
        /// The one thread that runs.
        case running
        /// Waiting on a condition, released by a signal, a broadcast, a spurious wake-up or
        /// its deadline.
        case waiting(condition: ObjectIdentifier, mutex: ObjectIdentifier, deadline: UInt64?, location: SeamLocation?)
        /// Exited (or never started).
        case finished
    }

    var state: State
    /// How the thread's last condition wait ended.
    var waitResult: SeamWaitResult = .signalled
    /// The name shown in reports.
    let name: String
    /// Whether another thread requested its cancellation.
    var cancelRequested = false
    /// Whether it had cancellation enabled at its last scheduling point.
    var cancellable = true
    /// How deep it is in regions that must not be preempted.
    var nonPreemptibleDepth = 0
    /// Whether it is one of the task executor's threads (a lane, the timer thread).
    var isExecutorThread = false
    /// Whether it is a lane that runs queued jobs, interchangeable with the other lanes
    /// while neither runs a job.
    var isInterchangeableLane = false
    /// For a lane running a job: the job's task (`nil` for a job that runs no task).
    var job: JobIdentity?

    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }
}

/// The scheduler's model of a mutex.
struct MutexModel {
    var owner: Int?
    var depth = 0
}
