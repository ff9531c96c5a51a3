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
    /// Its frames in the code under test where it waits once the job ended, innermost first
    /// (the harness reads the innermost only, where the task goes on next); `nil` when the
    /// task ended with the job.
    public let suspendedIn: [CodePlace]?

    public init(task: Int, resumedIn: [CodePlace], suspendedIn: [CodePlace]?) {
        self.task = task
        self.resumedIn = resumedIn
        self.suspendedIn = suspendedIn
    }

    /// Whether it names any place of the code under test.
    public var namesUserCode: Bool { !resumedIn.isEmpty || suspendedIn?.isEmpty == false }
}

/// A task job's places as addresses (``RuntimeTask/resumeState``), read as it ran: cheap to
/// take for every job (two words, nothing allocated), symbolicated (``places(task:)``) only for
/// a report, in the same process.
struct TaskJobPoints {
    /// The resume point of the task as the job began.
    let resumed: UInt
    /// The resume point of the task as the job ended; `nil` when it ended.
    let suspended: UInt?

    /// The job's places in the code under test, for task `task` (from 1).
    func places(task: Int) -> TaskJobPlaces {
        TaskJobPlaces(
            task: task,
            resumedIn: ResumePointSymbols.userPlaces(of: [resumed]),
            suspendedIn: suspended.map { ResumePointSymbols.userPlaces(of: [$0]) }
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
