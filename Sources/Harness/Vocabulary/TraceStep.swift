import Primitives

/// One step of an execution's schedule.
public struct TraceStep: Sendable, Hashable {
    init(
        thread: Int?,
        kind: OperationKind,
        target: TraceTarget?,
        choice: Int? = nil,
        location: SeamLocation?,
        task: Int? = nil,
        isBookkeeping: Bool = false,
        call: DropInCall? = nil
    ) {
        self.thread = thread
        self.kind = kind
        self.target = target
        self.choice = choice
        self.location = location
        self.task = task
        self.isBookkeeping = isBookkeeping
        self.call = call
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
    /// The drop-in call that began with this step (the step's own operation is then the
    /// drop-in's insides, which reports show as the call); `nil` for every other step.
    public let call: DropInCall?

    /// A one-line description: operation, target and location.
    public var summary: String {
        var text = kind.description
        if let target { text += " \(target)" }
        if let location { text += " @\(location.fileName):\(location.line)" }
        return text
    }
}
