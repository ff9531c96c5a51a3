import Primitives

/// Why an execution failed: a value, whose words `Report/` writes (its `description`).
///
/// Indirect, so that an optional failure is one word: every execution's model and record
/// carry one, nearly always `nil`, and testing and copying the whole enum cost each
/// execution a few hundred instructions.
public indirect enum ExecutionFailure: Sendable, Hashable, Codable {
    /// An invariant checked with ``Harness/check(_:_:file:line:)`` did not hold.
    case invariant(message: String, thread: Int, file: String, line: UInt)
    /// Thread `thread` unlocked `mutex`, which it does not hold, at `location`.
    case unheldUnlock(thread: Int, mutex: SharedObject, location: SeamLocation?)
    /// Thread `thread` joined thread `target`, which a join had reaped already, at `location`.
    case joinedTwice(thread: Int, target: Int, location: SeamLocation?)
    /// No thread could run while some had not finished; `waits` says who waits for what (the
    /// scenario's threads: the harness's own threads and waits are left out), and `cycle`
    /// names a lock-order cycle when there is one.
    case deadlock(waits: [Wait], cycle: [Int]?)
    /// No thread or task could go on while tasks had not ended, and no job or timer was left
    /// to wake them: the tasks wait for each other (actors waiting through continuations,
    /// a task awaiting one that awaits it) or for a continuation nobody resumes. `tasks`
    /// lists each, in the order the execution first saw them.
    case tasksDeadlocked(tasks: [BlockedTask])
    /// The scenario's body returned and its threads could not all finish.
    case threadsStillRunning(waits: [Wait])
    /// A stress test's body returned a forbidden outcome under the deterministic scheduler:
    /// `outcome` is the value as the test's `Outcome` prints it. A search for a schedule
    /// fails an execution this way only when the body returned the outcome it looks for.
    case forbiddenOutcome(outcome: String, thread: Int)
    /// The history a ``LinearizabilityTest`` recorded failed its check, on `thread`.
    case historyRejected(HistoryRejection, thread: Int)
    /// The execution took more steps than its bound: a livelock or an endless loop.
    case stepBoundExceeded(Int)
    /// A thread's body threw.
    case threadThrew(thread: Int, error: String)
    /// A task the scenario started threw.
    case taskThrew(error: String)
    /// A thread did not reach a scheduling point for too long: blocked outside the seam, or
    /// busy there on a CPU, for `seconds` (time it was runnable but given no CPU does not
    /// count). `diagnosis` says which and where, read from its stack, and what to use instead.
    case stalled(thread: Int, seconds: Double, diagnosis: StallDiagnosis)
    /// More threads than the harness can control at once.
    case tooManyThreads(Int)
    /// Something the harness does not schedule took part in the execution.
    case nondeterminism(Nondeterminism)
    /// A job of the execution came from a thread the harness does not control: work escaped
    /// it, and what the scenario saw afterwards (a check failing, tasks waiting) may be the
    /// escape's doing. It takes precedence over any other failure of the execution.
    case escaped(JobEscape)
    /// A thread crashed the process (under ``ExplorationIsolation/process``, the child
    /// process): `signal` ended it, and `cause` holds the runtime's fatal message and the
    /// crashing thread's frames outside the harness, as far as the process printed them.
    case crashed(signal: Int32, cause: String)
    /// A signal from outside ended the isolated child process while it ran this schedule, the
    /// last it began: SIGKILL (`kill -9`, the OOM killer) or another signal that is not a
    /// crash (``ExplorationIsolation/process``). Not a crash of the code under test, though
    /// the schedule may have led to it (by taking all the memory).
    case killed(signal: Int32)
}

extension ExecutionFailure {
    /// What two executions must share to fail "the same way" while a schedule or a
    /// generated scenario is shrunk: the check that failed (where the scenario's code wrote
    /// it, not its message's values), the kind of deadlock or hang, the error thrown, the
    /// kind of a history's rejection. `nil` for failures a shrink cannot re-run: a stall
    /// (each try would wait out the timeout), a crash, nondeterminism, a divergence.
    var shrinkingKey: ShrinkingKey? {
        switch self {
        case let .invariant(_, _, file, line): .check(file: file, line: line)
        case .unheldUnlock(_, _, let location): .unheldUnlock(location)
        case .joinedTwice(_, _, let location): .joinedTwice(location)
        case .deadlock, .tasksDeadlocked: .deadlock
        case .threadsStillRunning: .threadsStillRunning
        case .forbiddenOutcome(let outcome, _): .forbiddenOutcome(outcome)
        case .historyRejected(let rejection, _): .historyRejected(rejection.kind)
        case .stepBoundExceeded: .stepBound
        case let .threadThrew(_, error): .threw(error)
        case let .taskThrew(error): .taskThrew(error)
        case .tooManyThreads: .tooManyThreads
        case .stalled, .nondeterminism, .escaped, .crashed, .killed: nil
        }
    }

    /// See ``shrinkingKey``.
    enum ShrinkingKey: Hashable {
        /// A check of the scenario's own code, by where it is written.
        case check(file: String, line: UInt)
        /// An unlock of a mutex not held, by where it is written.
        case unheldUnlock(SeamLocation?)
        /// A second join of a thread, by where it is written.
        case joinedTwice(SeamLocation?)
        case deadlock
        case threadsStillRunning
        case forbiddenOutcome(String)
        case historyRejected(HistoryRejection.Kind)
        case stepBound
        case threw(String)
        case taskThrew(String)
        case tooManyThreads
    }
}

/// Something the harness does not schedule that took part in an execution; its words are in
/// `Report/` (``description``).
public enum Nondeterminism: Sendable, Hashable, Codable {
    /// Thread `thread`, running as a coroutine, was cancelled, which only an OS thread can
    /// be: the execution runs again on OS threads.
    case cancelledCoroutine(thread: Int)
    /// Thread `thread`, running as a coroutine, used thread-specific storage at `location`,
    /// which only an OS thread has: the execution runs again on OS threads.
    case threadSpecificStorage(thread: Int, location: SeamLocation)
    /// Thread `thread`, running as a coroutine, called `function` to tell OS threads apart,
    /// from `place` in the code under test (`nil` where it has no debug information), and
    /// would have been told the host's thread: the execution runs again on OS threads.
    case threadIdentity(thread: Int, function: ThreadIdentityFunction, place: CodePlace?)
    /// A task slept on the clock named `clock`, whose durations are not `Duration`, so the
    /// harness cannot put them on its virtual clock.
    case foreignClock(String)
}

/// A function by which code tells OS threads apart, which the harness watches on coroutines.
public enum ThreadIdentityFunction: String, Sendable, Hashable, Codable {
    case pthreadSelf = "pthread_self"
    case pthreadGetspecific = "pthread_getspecific"
    case pthreadSetspecific = "pthread_setspecific"
    case gettid
    /// A wait for a lock whose word records its owner's OS thread (`Synchronization.Mutex` on
    /// Linux, through the futex's priority-inheritance operations), held on the same OS thread:
    /// by another coroutine, across a scheduling point.
    case lockOwnedByOSThread = "FUTEX_LOCK_PI"
}

/// That an exploration asked for coroutines and ran its scenario threads on OS threads from
/// schedule `schedule` on, because of `reason` (see ``ExplorationOptions/threads``).
public struct OSThreadFallback: Sendable, Hashable, Codable {
    /// The first schedule that ran on OS threads: the one that needed them, run again.
    public let schedule: Int
    public let reason: Nondeterminism

    public init(schedule: Int, reason: Nondeterminism) {
        self.schedule = schedule
        self.reason = reason
    }
}

/// A task that waits for good, as a ``ExecutionFailure/tasksDeadlocked(tasks:)`` lists it.
public struct BlockedTask: Sendable, Hashable, Codable {
    /// The task's number in ``TraceStep/task`` (from 1).
    public let task: Int
    /// The name the task was given, or where ``Scenario/task(name:file:line:_:)`` started
    /// it; `nil` for a task started with `Task {}` or `Task.detached`.
    public let name: String?
    /// Where in the code under test the task waits: the innermost of its suspended frames
    /// there; `nil` when no frame is (no debug information).
    public let waitsAt: CodePlace?
    /// The outermost of its suspended frames in the code under test: the body it was started
    /// with, when that is there.
    public let startedIn: CodePlace?
    /// What the task awaits, as the runtime records it; `nil` when the record could not be
    /// read.
    public let awaits: Awaited?

    public init(task: Int, name: String?, waitsAt: CodePlace?, startedIn: CodePlace?, awaits: Awaited? = nil) {
        self.task = task
        self.name = name
        self.waitsAt = waitsAt
        self.startedIn = startedIn
        self.awaits = awaits
    }

    /// What a blocked task awaits. Only ``task(_:)`` is something nothing outside the harness
    /// can end: the others may be resumed from a thread the harness does not control, so the
    /// harness gives such a resume its grace before it reports the deadlock.
    public enum Awaited: Sendable, Hashable, Codable {
        /// The value of another task of the execution (its number, from 1), which waits too.
        case task(Int)
        /// A continuation: whatever holds it may resume it, from any thread.
        case continuation
        /// A child of the task's task group.
        case taskGroup
        /// The value of a task the execution does not run.
        case foreignTask
    }
}

/// A place in the code under test: a file name, a line and the function there.
public struct CodePlace: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file's name, without its directory.
    public let file: String
    public let line: Int
    /// The function, as the source spells it (`Peer.handshake()`, `closure #1 in run()`).
    public let function: String

    public init(file: String, line: Int, function: String) {
        self.file = file
        self.line = line
        self.function = function
    }

    /// `File.swift:18 in Type.method()`.
    public var description: String { "\(file):\(line) in \(function)" }
}

/// Work that escaped an execution: a job enqueued from a thread the harness does not
/// control, as ``ExecutionFailure/escaped(_:)`` reports it.
public struct JobEscape: Sendable, Hashable, Codable {
    /// The thread the job came from, as the system names it (`oot.default-qos` is a thread of
    /// the platform's global executor); `nil` for a thread without a name.
    public let thread: String?
    /// Whether it came from the main thread: a `MainActor` job, or the main queue's.
    public let isMainThread: Bool
    /// The task whose job it was (its number in ``TraceStep/task``, from 1), when the
    /// execution had seen the task before.
    public let task: Int?
    /// That task's name, when it has one.
    public let taskName: String?
    /// Whether the harness owned the process's executors (``ExplorationIsolation/process``):
    /// then only a thread the scenario's code started, or Dispatch, could have sent it.
    public let executorsOwned: Bool

    public init(thread: String?, isMainThread: Bool, task: Int?, taskName: String?, executorsOwned: Bool) {
        self.thread = thread
        self.isMainThread = isMainThread
        self.task = task
        self.taskName = taskName
        self.executorsOwned = executorsOwned
    }
}
