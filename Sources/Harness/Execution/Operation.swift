import Primitives

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
    /// Going on once every other thread has finished or waits for good: enabled only when
    /// nothing else can run and no deadline is left.
    case quiesce
    /// Going on once the task executor is quiet (``ExecutionModel/noteExecutor(queuedJobs:isQuiet:isClosed:)``).
    case awaitTasks

    @inline(__always)
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
        case .quiesce: .quiesce
        case .awaitTasks: .awaitTasks
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
        case .start, .spawn, .join, .yield, .sleep, .resume, .handoff, .quiesce, .awaitTasks:
            nil
        }
    }
}
