import Primitives

/// What one execution needs: the scenario to run, the strategy that chooses, the limits, and
/// where it runs and records. The exploration makes one per execution; the pool, the stacks,
/// the counter and the record are reused from one to the next.
struct ExecutionPlan {
    /// The scenario, run as thread 0: it returns once the scenario's own threads are joined.
    let scenario: @Sendable () -> Void
    /// The strategy (a ``ReplayThenSearch`` follows a recorded schedule first), lent by the
    /// search, which goes on with it as the execution leaves it.
    let strategy: StrategyCell
    var limits: ExecutionLimits
    /// Where the execution's OS threads run (the executor's lanes, and scenario threads when
    /// they are not coroutines).
    let threadPool: SeamThreadPool
    /// The stacks scenario threads run on as coroutines, where this build can switch them;
    /// `nil`: every thread is an OS thread.
    var coroutineStacks: CoroutineStacks?
    /// A handoff to run the scenario threads as coroutines with, kept from an execution that
    /// ended on the same runner (``CoroutineHandoff/reset()``); `nil`: the execution makes
    /// its own.
    var reusedHandoff: CoroutineHandoff? = nil
    /// The counter of the worker that runs the execution: counts its steps, for stall
    /// detection and an isolated child's heartbeat.
    let activity: ActivityCounter
    /// The storage of the steps and decisions of the worker's executions, handed from one to
    /// the next.
    let storage: RecordStorage
    /// Where the steps' bytes go, for the crash report and an isolated child's parent; it
    /// must hold ``Execution/stepByteCapacity(_:)`` bytes of steps for the limits.
    let record: ScheduleRecord
    /// The execution's token without its steps, and what the process prints before and after
    /// the schedule so far in base64url should a thread of the execution crash; read when the
    /// execution begins.
    let texts: ExecutionTexts
}

/// What one execution did, handed back once it has ended. A class, so that handing it on
/// (to the tally, the search, a failure) shares it instead of copying a dozen references.
final class ExecutionRecord {
    /// The steps taken, as the execution recorded them.
    let steps: CompactTrace
    /// Why the execution failed, if it did.
    let failure: ExecutionFailure?
    /// The decisions taken: which thread or job ran, and who could have gone on.
    let decisions: [ScheduleDecision]
    /// How many decisions ran another thread while the running one could go on.
    let preemptions: Int
    /// The order in which threads and tasks took each shared object, hashed
    /// (``InterleavingFingerprint/value``).
    let fingerprint: UInt64
    /// How many threads the execution started, the root thread and the executor's included.
    let threadCount: Int
    /// The names of the tasks that took steps, by their number from 0 (``TraceStep/task``
    /// less one); `nil` for a task with none.
    let taskNames: [TaskName?]
    /// The tasks (numbered from 1) that ran in each job, with their places as addresses and
    /// the index of the `takeJob` step that ended the job, in step order.
    let jobPoints: [TaskJobRun]
    /// Where the code created the tasks whose jobs ran, by their number in ``TraceStep/task``.
    let taskCreations: [Int: TaskCreationSite]
    /// Where the code first left the recorded schedule; `nil` when it followed it to the
    /// end, or followed none.
    let replayDivergence: ReplayFollower.Divergence?
    /// Why the execution stopped to be run again on OS threads: a scenario thread running as
    /// a coroutine did what only an OS thread can (it was cancelled, or used thread-specific
    /// storage). `nil` when it ran to its end.
    let needsOSThreads: Nondeterminism?

    init(
        steps: CompactTrace,
        failure: ExecutionFailure?,
        decisions: [ScheduleDecision],
        preemptions: Int,
        fingerprint: UInt64,
        threadCount: Int,
        taskNames: [TaskName?],
        jobPoints: [TaskJobRun],
        taskCreations: [Int: TaskCreationSite],
        replayDivergence: ReplayFollower.Divergence?,
        needsOSThreads: Nondeterminism?
    ) {
        self.steps = steps
        self.failure = failure
        self.decisions = decisions
        self.preemptions = preemptions
        self.fingerprint = fingerprint
        self.threadCount = threadCount
        self.taskNames = taskNames
        self.jobPoints = jobPoints
        self.taskCreations = taskCreations
        self.replayDivergence = replayDivergence
        self.needsOSThreads = needsOSThreads
    }

    /// The steps taken, named: made on each call, for a report or a token.
    var trace: [TraceStep] { steps.named }

    /// How many steps the execution took.
    var stepCount: Int { steps.count }

    /// Where the tasks that ran in each job began and ended in the code under test, by the
    /// index of the `takeJob` step that ended the job: symbolicated on each call (in the
    /// process that ran the execution), for a report.
    var taskJobPlaces: [Int: [TaskJobPlaces]] {
        var places: [Int: [TaskJobPlaces]] = [:]
        for ran in jobPoints {
            let named = ran.points.places(task: ran.task)
            if named.namesUserCode { places[ran.step, default: []].append(named) }
        }
        return places
    }

    /// The lines of the code under test that created the tasks whose jobs ran, by their number
    /// in ``TraceStep/task``: symbolicated on each call, for a report.
    var taskCreationPlaces: [Int: CodePlace] {
        taskCreations.compactMapValues(\.place)
    }
}
