import CShim
import Primitives

/// The execution as its task executor (``AsyncServices``) sees it: the executor's
/// scheduling points, threads and tasks.
extension Execution: TaskScheduling {
    /// The execution's task executor and timers, started on first use by the calling
    /// (controlled) thread.
    func services() -> AsyncServices<Execution> {
        if let asyncServices { return asyncServices }
        let services = AsyncServices(scheduler: self, reusing: &executorLeftovers)
        asyncServices = services
        escapedJobs = Unmanaged.passUnretained(services.foreignJobs)
        model.noteInternalObjects(services.synchronization.objects)
        services.start(lanes: limits.executorLanes, readingAsyncStacks: limits.readsAsyncStacks)
        return services
    }

    /// The execution's task executor, if something started it.
    var startedServices: AsyncServices<Execution>? { asyncServices }

    func runs(on services: AsyncServices<Execution>) -> Bool {
        asyncServices === services
    }

    /// Lets the tasks finish and the executor's threads exit; called as thread 0 ends, once
    /// every task has ended or waits for good. Tasks that wait for good (a `Task {}` the
    /// scenario did not wait for, left on a continuation nobody resumes) fail the execution,
    /// unless a job from outside comes for them.
    func closeServices() {
        guard let asyncServices else { return }
        if asyncServices.hasUnendedTasks, !awaitForeignJob() {
            failAtNextDecision(.tasksDeadlocked(tasks: blockedTasks()))
        }
        asyncServices.close()
    }

    /// Once nothing the execution controls can run and tasks have not ended: waits for a job
    /// from outside for as long as one may still wake them (``ForeignWakeup``); returns
    /// whether one came.
    func awaitForeignJob() -> Bool {
        guard let asyncServices else { return false }
        return asyncServices.foreignJobs.awaitOne(grace: limits.foreignJobGrace, cap: limits.stallTimeout) {
            asyncServices.foreignWakeup
        }
    }

    /// The execution's tasks that have not ended, as a deadlock lists them: numbered, named,
    /// and where in the code under test each waits. Call when no other thread or task runs,
    /// and no job escaped (a task running outside the harness is not suspended).
    func blockedTasks() -> [BlockedTask] {
        (asyncServices?.unendedTasks ?? []).map { task in
            let number = trace.taskNumber(runtimeID: task.runtimeID) + 1
            let places = ResumePointSymbols.userPlaces(of: task.resumePoints)
            return BlockedTask(
                task: number,
                name: trace.name(ofTask: number)?.text,
                waitsAt: places.first,
                startedIn: places.last,
                awaits: task.awaits
            )
        }
    }

    /// Tests first whether any thread is in a non-preemptible region, which reads one field:
    /// asking the model at once copies the whole model out of the execution first.
    var hasUrgentThread: Bool { !model.nonPreemptible.isEmpty && model.hasUrgentThread }

    /// The scheduling point of a thread that has just queued `job` on the scenario's
    /// executor: a lane may take the job before the thread goes on.
    func jobEnqueued(_ job: JobIdentity) {
        point(.enqueueJob(task: job.task), nil)
    }

    func noteExecutor(queuedJobs: Int, isQuiet: Bool, isClosed: Bool) {
        model.noteExecutor(queuedJobs: queuedJobs, isQuiet: isQuiet, isClosed: isClosed)
    }

    /// The scheduling point of a thread waiting for the executor to fall quiet: it goes on
    /// once it is (``ExecutionModel/noteExecutor(queuedJobs:isQuiet:isClosed:)``).
    func awaitTasks(at location: SeamLocation) {
        point(.awaitTasks, location)
    }

    /// The scheduling point of a lane that finished a job (in which the tasks of `ran` ran,
    /// with their places), before it takes the next: any other thread may run first, and
    /// jobs queued meanwhile compete for the lane.
    func laneWillTakeJob(after ran: UnsafeBufferPointer<(runtimeID: UInt64, points: TaskJobPoints)>) {
        let me = currentThread()
        if !ran.isEmpty {
            withCancellationDisabled(on: me) { _ in trace.noteFinishedJob(lane: me, ran: ran) }
        }
        point(.takeJob, nil)
        withCancellationDisabled(on: me) { _ in model.lane(me, runs: nil) }
    }

    func taskNumber(runtimeID: UInt64) -> Int {
        trace.taskNumber(runtimeID: runtimeID)
    }

    /// Picks which of the queued `jobs` the calling lane runs: a decision of the strategy,
    /// recorded in the trace (and in tokens, as the index in the queue) when there is a
    /// choice. The lane's steps until ``laneWillTakeJob(after:)`` are the job's task's.
    func chooseJob(among jobs: UnsafeBufferPointer<JobIdentity>) -> Int {
        let me = currentThread()
        return withCancellationDisabled(on: me) { _ in
            if aborting { return 0 }
            let count = jobs.count
            guard count > 1 else {
                model.lane(me, runs: jobs.first)
                return 0
            }
            let index: Int
            if followsRecordedSchedule, let choice = replay?.jobChoice(at: trace.steps.count, among: count) {
                index = choice
            } else {
                jobCandidates.removeAll()
                let queue = Access(object: .jobQueue, isRead: false)
                for job in jobs { jobCandidates.append(Candidate(.job(job), access: queue)) }
                index = strategy.value.choose(among: jobCandidates.view, running: nil)
            }
            record(model.lane(me, chose: index, among: jobs))
            return index
        }
    }

    /// Starts a thread of the task executor (a lane, the timer thread): its steps outside a
    /// task's job are the harness's own bookkeeping. It runs as a coroutine where the
    /// scenario's threads do and a coroutine switch carries the concurrency runtime's
    /// per-thread state (a job switched out in the middle finds its task again), on an OS
    /// thread otherwise.
    func spawnExecutorThread(interchangeable: Bool, _ body: @escaping @Sendable () -> Void) -> SeamThread {
        model.roleOfSpawnedThreads = interchangeable ? .interchangeableLane : .executor
        defer { model.roleOfSpawnedThreads = .scenario }
        let host = backend.coroutineHost.flatMap { cshim_coroutines_carry_tasks() ? $0 : nil } ?? threadPool
        return spawnedHarnessThread(Seam.spawnThread(on: host, body), "an executor thread")
    }

    /// Names the task the runtime knows by `runtimeID` `name`, for reports; not a
    /// scheduling point.
    func nameTask(runtimeID: UInt64, _ name: TaskName) {
        withCancellationDisabled { _ in trace.nameTask(runtimeID: runtimeID, name) }
    }
}
