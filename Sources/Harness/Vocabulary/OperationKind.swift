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
    /// The thread went on once every other thread had finished or waited for good (a
    /// generated scenario with blocking operations, at the end of a part).
    case quiesce
    /// The thread went on once the task executor was quiet: every task the scenario started
    /// had ended, every other had ended or waited for good, no job or timer was left (a
    /// scenario's `joinAll()`).
    case awaitTasks

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
        case .quiesce: "quiesce"
        case .awaitTasks: "await-tasks"
        }
    }
}
