import Primitives

/// What one execution needs: the setting it shares with the other executions of its worker,
/// the strategy that chooses, and the limits. The exploration makes one per execution.
struct ExecutionPlan {
    /// What the worker's executions share.
    let setting: ExecutionSetting
    /// The strategy (a ``ReplayThenSearch`` follows a recorded schedule first), lent by the
    /// search, which goes on with it as the execution leaves it.
    let strategy: StrategyCell
    var limits: ExecutionLimits
    /// A handoff to run the scenario threads as coroutines with, kept from an execution that
    /// ended on the same runner (``CoroutineHandoff/reset()``); `nil`: the execution makes
    /// its own.
    var reusedHandoff: CoroutineHandoff? = nil
}

/// What the executions one worker of an exploration runs share: the scenario, where their
/// threads run and where they record. Made once for the worker, and anew once its executions
/// move to OS threads: a plan hands an execution one reference for all of it, and an execution
/// that ran a plan can run the next of the same setting in what it grew
/// (``Execution/run(_:on:reusing:)``).
final class ExecutionSetting {
    /// The scenario, run as thread 0: it returns once the scenario's own threads are joined.
    let scenario: @Sendable () -> Void
    /// Where the executions' OS threads run (the executor's lanes, and scenario threads when
    /// they are not coroutines).
    let threadPool: SeamThreadPool
    /// The stacks scenario threads run on as coroutines, where this build can switch them;
    /// `nil`: every thread is an OS thread.
    let coroutineStacks: CoroutineStacks?
    /// The counter of the worker: counts the executions' steps, for stall detection and an
    /// isolated child's heartbeat.
    let activity: ActivityCounter
    /// The storage of the steps, decisions, task names and job points of the worker's
    /// executions, handed from one to the next.
    let storage: RecordStorage
    /// Where the steps' bytes go, for the crash report and an isolated child's parent; it
    /// must hold ``Execution/stepByteCapacity(_:)`` bytes of steps for the limits.
    let record: ScheduleRecord
    /// The token of the execution that begins next without its steps, and what the process
    /// prints before and after the schedule so far in base64url should a thread of it crash;
    /// read when the execution begins.
    let texts: ExecutionTexts

    init(
        scenario: @escaping @Sendable () -> Void, threadPool: SeamThreadPool, coroutineStacks: CoroutineStacks?,
        activity: ActivityCounter, storage: RecordStorage, record: ScheduleRecord, texts: ExecutionTexts
    ) {
        self.scenario = scenario
        self.threadPool = threadPool
        self.coroutineStacks = coroutineStacks
        self.activity = activity
        self.storage = storage
        self.record = record
        self.texts = texts
    }
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
    /// The tasks' whole async stacks that ``jobPoints`` index (``TaskJobPoints/stacks``);
    /// empty unless the execution read them.
    let stacksRead: [TaskJobPoints.Stacks]
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
        stacksRead: [TaskJobPoints.Stacks],
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
        self.stacksRead = stacksRead
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
            let named = ran.points.places(task: ran.task, stacksRead: stacksRead)
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
