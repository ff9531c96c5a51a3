/// Where one job of a task began and ended in the code under test: the task's async frames
/// as it was resumed, and as it suspended (or that it ended), innermost first. A report names
/// each task step by these, so an actor race reads as the user's own lines.
public struct TaskJobPlaces: Sendable, Hashable, Codable {
    /// The task, by its number in ``TraceStep/task`` (from 1).
    public let task: Int
    /// The task's frames in the code under test where it went on when the job began,
    /// innermost first; empty when none is there (the task's first job starts in a harness
    /// or standard-library thunk, or there is no debug information).
    public let resumedIn: [CodePlace]
    /// Its frames in the code under test where it waits once the job ended, innermost first;
    /// `nil` when the task ended with the job. A frame that awaits a call waits at the line
    /// of that `await`; the innermost may wait where it goes on (``changesExecutor``).
    public let suspendedIn: [CodePlace]?
    /// Whether ``resumedIn`` and ``suspendedIn`` hold every frame of the task in the code
    /// under test, read from its whole async stack; else each holds at most the innermost
    /// frame, and only when that is in the code under test.
    public let wholeStacks: Bool
    /// Whether the task suspended only to change executors (an actor hop), already queued to
    /// go on where ``suspendedIn`` begins.
    public let changesExecutor: Bool

    public init(
        task: Int,
        resumedIn: [CodePlace],
        suspendedIn: [CodePlace]?,
        wholeStacks: Bool = false,
        changesExecutor: Bool = false
    ) {
        self.task = task
        self.resumedIn = resumedIn
        self.suspendedIn = suspendedIn
        self.wholeStacks = wholeStacks
        self.changesExecutor = changesExecutor
    }

    /// Whether it names any place of the code under test.
    public var namesUserCode: Bool { !resumedIn.isEmpty || suspendedIn?.isEmpty == false }
}

/// A task job's places as addresses (``RuntimeTask/resumeState``), read as it ran: cheap to
/// take for every job (a few words of plain data, nothing allocated or retained),
/// symbolicated (``places(task:stacksRead:)``) only for a report, in the same process.
struct TaskJobPoints {
    /// The resume point of the task as the job began.
    let resumed: UInt
    /// The resume point of the task as the job ended; `nil` when it ended.
    let suspended: UInt?
    /// Where the task's whole async stacks for the job are in the execution's list of them
    /// (``AsyncServices/stacksRead``), when it read them
    /// (``ExecutionLimits/readsAsyncStacks``); `nil` otherwise. An index, not the arrays, so
    /// that copying the points retains nothing.
    var stacks: Int? = nil

    /// A task's resume points as a job began and ended, innermost first
    /// (``RuntimeTask/resumePoints``): a task that suspends in a call outside the code under
    /// test (`Task.sleep`) waits at the `await` of its innermost frame in that code.
    struct Stacks {
        let resumed: [UInt]
        /// Empty when the task ended.
        let suspended: [UInt]
        /// Whether the task, suspended, was already queued to go on: it suspended only to
        /// change executors (an actor hop), not to wait for something.
        let awaitsExecutor: Bool
    }

    /// The job's places in the code under test, for task `task` (from 1), with `stacksRead`
    /// the execution's list that ``stacks`` indexes. With whole stacks, a job that ran no
    /// code under test (a `Task.sleep` going on inside the standard library) names none.
    func places(task: Int, stacksRead: [Stacks]) -> TaskJobPlaces {
        guard let stacks = self.stacks.map({ stacksRead[$0] }) else {
            return TaskJobPlaces(
                task: task,
                resumedIn: ResumePointSymbols.userPlaces(of: [resumed]),
                suspendedIn: suspended.map { ResumePointSymbols.userPlaces(of: [$0]) }
            )
        }
        let resumedIn = ResumePointSymbols.userPlaces(of: stacks.resumed)
        let suspendedIn = suspended.map { _ in ResumePointSymbols.userPlaces(of: stacks.suspended) }
        func innermostIsUserCode(_ stack: [UInt]) -> Bool {
            stack.first.map { !ResumePointSymbols.userPlaces(of: [$0]).isEmpty } ?? false
        }
        let suspendedInUserCode = innermostIsUserCode(stacks.suspended)
        guard innermostIsUserCode(stacks.resumed) || suspendedInUserCode || suspendedIn != resumedIn else {
            return TaskJobPlaces(task: task, resumedIn: [], suspendedIn: [], wholeStacks: true)
        }
        return TaskJobPlaces(
            task: task,
            resumedIn: resumedIn,
            suspendedIn: suspendedIn,
            wholeStacks: true,
            changesExecutor: stacks.awaitsExecutor && suspendedInUserCode
        )
    }
}

/// A task that ran in a job, with its places as addresses: what an execution notes of each
/// job for a report.
struct TaskJobRun {
    /// The index of the `takeJob` step that ended the job.
    let step: Int
    /// The task, numbered from 1 as ``TraceStep/task``.
    let task: Int
    /// Where it resumed and suspended.
    let points: TaskJobPoints
}
