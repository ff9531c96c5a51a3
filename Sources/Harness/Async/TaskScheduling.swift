import Primitives

/// What the task executor (``AsyncServices``) asks of the execution that schedules it: the
/// executor's scheduling points (a job queued, a lane about to take the next, the choice
/// among queued jobs), its threads, and the numbers and names of its tasks. Called only from
/// the execution's controlled threads, while the execution runs.
protocol TaskScheduling: AnyObject, Sendable {
    /// Starts a thread of the executor (a lane, the timer thread): `interchangeable` for a
    /// lane that runs queued jobs.
    func spawnExecutorThread(interchangeable: Bool, _ body: @escaping @Sendable () -> Void) -> SeamThread
    /// The owner of an executor thread joined it.
    func joinedHarnessThread(_ thread: SeamThread)
    /// Whether a thread in a non-preemptible region can run, which the executor's mutex
    /// lets run first.
    var hasUrgentThread: Bool { get }
    /// The scheduling point of a thread that has just queued `job`.
    func jobEnqueued(_ job: JobIdentity)
    /// `queuedJobs` jobs are queued for the lanes, and the executor is quiet or not, closed or
    /// not: a lane goes on from its start, or from its last job, once a job is queued or the
    /// executor is closed and quiet; a thread waiting for tasks (``awaitTasks(at:)``), once it
    /// is quiet. Not a scheduling point.
    func noteExecutor(queuedJobs: Int, isQuiet: Bool, isClosed: Bool)
    /// The scheduling point of a thread that waits for the executor to fall quiet, at
    /// `location`: it goes on once it is.
    func awaitTasks(at location: SeamLocation)
    /// Which of the queued `jobs` the calling lane runs: an index into `jobs`, which the
    /// executor lends for the call (a view of its own list, not a copy retained for it).
    func chooseJob(among jobs: UnsafeBufferPointer<JobIdentity>) -> Int
    /// The scheduling point of a lane that finished a job, before it takes the next; `ran`
    /// are the tasks that ran in the job (by their runtime IDs), with their places, lent as
    /// `jobs` is.
    func laneWillTakeJob(after ran: UnsafeBufferPointer<(runtimeID: UInt64, points: TaskJobPoints)>)
    /// The execution's number (from 0) for the task the runtime knows by `runtimeID`.
    func taskNumber(runtimeID: UInt64) -> Int
    /// Names the task the runtime knows by `runtimeID` `name`, for reports.
    func nameTask(runtimeID: UInt64, _ name: TaskName)
    /// Fails the execution at its next decision, without ending the calling thread.
    func failAtNextDecision(_ failure: ExecutionFailure)
    /// Whether `services` is the task executor of the execution's current run (compared, not
    /// retained).
    func runs(on services: AsyncServices<Self>) -> Bool
}
