import Primitives

/// What the scheduler knows of one controlled thread.
struct ThreadRecord {
    enum State {
        /// At a scheduling point (or not yet arrived, for `.start`), waiting to perform `operation`.
        case ready(PendingOperation, SeamLocation?)
        /// The one thread that runs.
        case running
        /// Waiting on a condition, released by a signal, a broadcast, a spurious wake-up or
        /// its deadline, which is still to come: a wait already due never parks.
        case waiting(condition: ObjectIdentifier, mutex: ObjectIdentifier, deadline: UInt64?, location: SeamLocation?)
        /// Exited (or never started).
        case finished
    }

    var state: State
    /// How the thread's last condition wait ended: set when it wakes, handed back
    /// (``ExecutionModel/Reply/waitEnded(_:)``) once it holds the mutex again.
    var waitResult: SeamWaitResult = .signalled
    /// Whether another thread requested its cancellation.
    var cancelRequested = false
    /// Whether it had cancellation enabled at its last scheduling point.
    var cancellable = true
    /// While it waits on a condition: how many condition waits the execution began before
    /// this one; a signal wakes the waiter with the lowest. 32 bits, which fit beside the
    /// flags: a wait is a step, and an execution takes at most a million.
    var waitOrder: UInt32 = 0
    /// How deep it is in regions that must not be preempted.
    var nonPreemptibleDepth = 0
    /// Whose thread it is.
    var role = Role.scenario
    /// For a lane running a job: the job's task (`nil` for a job that runs no task).
    var job: JobIdentity?

    /// Whose thread a controlled thread is.
    enum Role {
        /// The scenario's: T0 and the threads it spawns.
        case scenario
        /// One of the task executor's threads (the main lane, the timer thread), whose steps
        /// outside a task's job are the harness's own bookkeeping.
        case executor
        /// One of the task executor's lanes that run queued jobs: an executor thread,
        /// interchangeable with the other such lanes while neither runs a job.
        case interchangeableLane
    }

    /// Whether it is one of the task executor's threads (a lane, the timer thread).
    var isExecutorThread: Bool { role != .scenario }
    /// Whether it is a lane that runs queued jobs, interchangeable with the other lanes
    /// while neither runs a job.
    var isInterchangeableLane: Bool { role == .interchangeableLane }

    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }
}

extension ThreadRecord.State {
    /// Whether the thread waits until every other has finished or waits for good.
    var isQuiescing: Bool {
        if case .ready(.quiesce, _) = self { return true }
        return false
    }
}

/// The scheduler's model of a mutex.
struct MutexModel {
    var owner: Int?
    var depth = 0

    /// `thread` takes the mutex, once more if it holds it.
    mutating func take(by thread: Int) {
        owner = thread
        depth += 1
    }

    /// `thread` releases the mutex once, if it holds it; returns whether it did.
    mutating func release(by thread: Int) -> Bool {
        guard owner == thread, depth > 0 else { return false }
        depth -= 1
        if depth == 0 { owner = nil }
        return true
    }
}
