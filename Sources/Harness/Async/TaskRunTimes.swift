import Primitives

/// How long, by the real clock, the task that sleeps has run and waited since it last
/// suspended to wait for something: what ``SleepDeadline`` needs to know of it.
///
/// A task's *run* is the jobs it runs from one such suspension to the next, across the
/// times it only queued itself again: it changed executor (the runtime's sleep, a
/// nonisolated function, called from a task with no executor preference, hops to the
/// generic executor on its way, after reading the clock), or it yielded. Its job then
/// waits for a lane while other jobs run, for milliseconds on a loaded machine. The time the
/// task ran in its current job, and in the one before with the wait between them, is kept.
///
/// Keeps the job each lane runs, and the run of each task by the runtime's ID. A task that
/// runs inside a job that is not its own (a default actor draining its queue runs the tasks
/// queued there) has its run begin as that job did. Touched only by the running thread.
struct TaskRunTimes {
    /// Real times, in nanoseconds of the monotonic clock.
    private enum Run {
        /// The task runs a job of its own, begun at `job`, after the run's `previous` job,
        /// if it has one.
        case running(job: UInt64, previous: SleepDeadline.PreviousJob?)
        /// The task queued itself at `at`, in a job that had run `ran`.
        case requeued(at: UInt64, ran: UInt64)
        /// The task suspended to wait for something, or ended: its next job begins a run.
        case suspended
    }

    /// The job each lane runs, or ran last: when it began, and its task's runtime ID (0 for
    /// a job that runs no task of its own).
    private var lanes = SmallMap<SeamThreadID, (started: UInt64, task: UInt64)>()
    private var runs = SmallMap<UInt64, Run>()

    /// `lane` begins at `now` a job of `task` (0 for none of its own): the task goes on with
    /// the run it queued itself in, if it did, or begins one.
    mutating func jobStarted(task: UInt64, on lane: SeamThreadID, at now: UInt64) {
        lanes.set(lane, to: (now, task))
        guard task != 0 else { return }
        Self.begin(&runs[task, default: .suspended], at: now)
    }

    /// `run`'s next job begins at `now`: the run goes on if its task queued itself, or begins.
    private static func begin(_ run: inout Run, at now: UInt64) {
        var previous: SleepDeadline.PreviousJob?
        if case .requeued(let at, let ran) = run {
            previous = .init(ran: .nanoseconds(ran), waited: .nanoseconds(now &- at))
        }
        run = .running(job: now, previous: previous)
    }

    /// `lane`'s job ended: its task's run ends too, unless the task queued itself meanwhile
    /// (its next job, on another lane, may even have begun).
    mutating func jobEnded(on lane: SeamThreadID) {
        guard let job = lanes[lane], job.task != 0 else { return }
        runs.modify(job.task) { run in
            if case .running(job.started, _) = run { run = .suspended }
        }
    }

    /// `thread` queued a job of `task` at `now()`, with `current` the task the runtime says
    /// runs on it. When `thread` is the lane running the task, in a job of its own or in one
    /// that runs tasks (the runtime has cleared the current task as the task changes
    /// executor), the task queued itself, and its run goes on when its job begins.
    mutating func jobQueued(
        task: UInt64, by thread: SeamThreadID?, current: () -> UInt64?, at now: () -> UInt64
    ) {
        guard task != 0, let thread, let job = lanes[thread] else { return }
        let ranInJob = job.task == task && isRunning(task, since: job.started)
        guard ranInJob || (job.task == 0 && current() == nil) else { return }
        let time = now()
        runs.set(task, to: .requeued(at: time, ran: time &- job.started))
    }

    /// The sleep `task`, running on `lane`, asks for at `now`, its deadline `remaining` away:
    /// its slack is the time since the lane's job began (with no task, or one running in a
    /// job not its own, too), none when `lane` runs no job; its previous job is the run's.
    func sleepDeadline(in remaining: Duration, by task: UInt64?, on lane: SeamThreadID?, at now: UInt64)
        -> SleepDeadline
    {
        guard let lane, let job = lanes[lane] else { return SleepDeadline(remaining: remaining, slack: .zero) }
        var previous: SleepDeadline.PreviousJob?
        if let task, job.task == task, case .running(job.started, let before)? = runs[task] { previous = before }
        return SleepDeadline(remaining: remaining, slack: .nanoseconds(now &- job.started), previous: previous)
    }

    private func isRunning(_ task: UInt64, since start: UInt64) -> Bool {
        guard case .running(start, _)? = runs[task] else { return false }
        return true
    }

    /// Forgets every lane and task, keeping the storage.
    mutating func removeAll() {
        lanes.removeAll()
        runs.removeAll()
    }
}
