import Primitives

/// What a thread does at one step of a schedule.
public enum OperationKind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case start = 0, lock, tryLock, unlock, wait, reacquire, signal, broadcast
    case atomicLoad, atomicStore, atomicReadModifyWrite
    case spawn, join, cancel, cancellationPoint, yield, sleep, resume, exit
    /// The scheduler woke a condition waiter without a signal, as POSIX allows.
    case spuriousWake
    /// Nothing could run, so the virtual clock advanced to the earliest deadline.
    case advanceClock
    /// A task executor lane picked which queued job runs next.
    case chooseJob
    /// A thread queued a job on the scenario's task executor and goes on (a lane may take
    /// the job first).
    case enqueueJob
    /// The thread stepped aside for one in a non-preemptible region that it unblocked.
    case handoff
    /// A lane finished a job and takes the next one (another thread may run first).
    case takeJob

    public var description: String {
        switch self {
        case .start: "start"
        case .lock: "lock"
        case .tryLock: "tryLock"
        case .unlock: "unlock"
        case .wait: "wait"
        case .reacquire: "wake+relock"
        case .signal: "signal"
        case .broadcast: "broadcast"
        case .atomicLoad: "load"
        case .atomicStore: "store"
        case .atomicReadModifyWrite: "rmw"
        case .spawn: "spawn"
        case .join: "join"
        case .cancel: "cancel"
        case .cancellationPoint: "cancel-point"
        case .yield: "yield"
        case .sleep: "sleep"
        case .resume: "resume"
        case .exit: "exit"
        case .spuriousWake: "spurious-wake"
        case .advanceClock: "advance-clock"
        case .chooseJob: "resumes"
        case .enqueueJob: "schedules"
        case .handoff: "hand-off"
        case .takeJob: "suspends"
        }
    }
}

/// An operation a thread waits to perform at its scheduling point.
enum PendingOperation: Equatable {
    case start
    case lock(ObjectIdentifier, recursive: Bool)
    case tryLock(ObjectIdentifier, recursive: Bool)
    case unlock(ObjectIdentifier)
    case wait(condition: ObjectIdentifier, mutex: ObjectIdentifier, deadline: UInt64?)
    case reacquire(mutex: ObjectIdentifier)
    case signal(ObjectIdentifier)
    case broadcast(ObjectIdentifier)
    case atomic(ObjectIdentifier, SeamAtomicAccess)
    case spawn
    case join(Int)
    case cancel(Int)
    case cancellationPoint
    case yield
    case sleep(until: UInt64)
    case resume
    /// Resuming after stepping aside for a thread in a non-preemptible region.
    case handoff
    /// Going on after queueing a job on the scenario's task executor.
    case enqueueJob(task: Int?)
    /// A lane taking its next job.
    case takeJob

    var kind: OperationKind {
        switch self {
        case .start: .start
        case .lock: .lock
        case .tryLock: .tryLock
        case .unlock: .unlock
        case .wait: .wait
        case .reacquire: .reacquire
        case .signal: .signal
        case .broadcast: .broadcast
        case .atomic(_, .load): .atomicLoad
        case .atomic(_, .store): .atomicStore
        case .atomic(_, .readModifyWrite): .atomicReadModifyWrite
        case .spawn: .spawn
        case .join: .join
        case .cancel: .cancel
        case .cancellationPoint: .cancellationPoint
        case .yield: .yield
        case .sleep: .sleep
        case .resume: .resume
        case .handoff: .handoff
        case .enqueueJob: .enqueueJob
        case .takeJob: .takeJob
        }
    }

    /// What the operation, performed by `thread`, touches of the shared state: `nil` for an
    /// operation that commutes with every other. A condition wait counts as touching its
    /// condition only: while the waiter holds the mutex, no other operation on it can run.
    func access(by thread: Int) -> Access? {
        switch self {
        case .lock(let object, _), .tryLock(let object, _), .unlock(let object), .reacquire(let object),
             .signal(let object), .broadcast(let object), .wait(let object, _, _),
             .atomic(let object, .store), .atomic(let object, .readModifyWrite):
            Access(object: .shared(object), isRead: false)
        case .atomic(let object, .load):
            Access(object: .shared(object), isRead: true)
        case .cancel(let target):
            Access(object: .cancellation(ofThread: target), isRead: false)
        case .cancellationPoint:
            Access(object: .cancellation(ofThread: thread), isRead: true)
        case .enqueueJob, .takeJob:
            Access(object: .jobQueue, isRead: false)
        case .start, .spawn, .join, .yield, .sleep, .resume, .handoff:
            nil
        }
    }
}

/// One step of an execution's schedule.
public struct TraceStep: Sendable, Hashable {
    init(
        thread: Int?,
        kind: OperationKind,
        target: TraceTarget?,
        choice: Int? = nil,
        location: SeamLocation?,
        task: Int? = nil,
        isBookkeeping: Bool = false
    ) {
        self.thread = thread
        self.kind = kind
        self.target = target
        self.choice = choice
        self.location = location
        self.task = task
        self.isBookkeeping = isBookkeeping
    }

    /// The thread that took the step, or `nil` for the scheduler's own steps.
    public let thread: Int?
    /// What it did.
    public let kind: OperationKind
    /// The shared object it touched (``SharedObject``, named in order of first use), or the
    /// thread, job or time it acted on.
    public let target: TraceTarget?
    /// For a choice among queued jobs, the index chosen.
    public let choice: Int?
    /// Where in the source the step was taken.
    public let location: SeamLocation?
    /// The task whose job the thread (an executor lane) was running, numbered from 1 in the
    /// order the execution first queued a job of it; `nil` outside a task's job.
    public let task: Int?
    /// Whether the step is the harness's own: the task executor's locks, waits and lane
    /// loop, which a schedule needs but a report does not show.
    public let isBookkeeping: Bool

    /// A one-line description: operation, target and location.
    public var summary: String {
        var text = kind.description
        if let target { text += " \(target)" }
        if let location { text += " @\(location.fileName):\(location.line)" }
        return text
    }
}
