import Primitives

/// What the code of a scenario (its threads, tasks and checks) asks of the execution that
/// runs it: to fail, to start threads and tasks where the execution runs them, and to know
/// which of them are joined.
protocol ScenarioRuntime: QuiescenceRuntime {
    /// Records `failure` on behalf of the calling thread and ends the thread.
    func fail(_ failure: ExecutionFailure) -> Never
    /// Fails the execution at its next decision, without ending the calling thread.
    func failAtNextDecision(_ failure: ExecutionFailure)
    /// Starts a scenario thread at `file`:`line`, running `body` where the execution runs its
    /// threads, and hands an error it throws to `onError`; the thread must be joined, by its
    /// owner or by the execution once a failure unwound its owner.
    func spawnScenarioThread(
        file: StaticString, line: UInt, _ body: @escaping @Sendable () throws -> Void,
        onError: @escaping @Sendable (any Error) -> Void
    ) -> SeamThread
    /// The owner of a thread ``spawnScenarioThread(file:line:_:onError:)`` started joined it.
    func joinedHarnessThread(_ thread: SeamThread)
    /// The execution's task executor and timers, started on first use by the calling thread.
    func services() -> AsyncServices<Execution>
    /// The execution's task executor, if something started it.
    var startedServices: AsyncServices<Execution>? { get }
    /// The scenario's code called `function`, from `returnAddress`, to tell OS threads apart:
    /// where the calling thread is a coroutine, the execution ends, to run again on OS threads.
    func usedThreadIdentity(_ function: ThreadIdentityFunction, returnAddress: UInt)
}

/// What a scenario whose calls may wait for good (a generated scenario with blocking
/// operations) asks of what runs its threads, an execution or a stress iteration: to go on
/// once nothing else can, and to end while threads still wait.
protocol QuiescenceRuntime: AnyObject {
    /// Returns once every other thread has finished or waits for good; `location` is the
    /// caller's place, for the trace.
    func awaitOthersQuiescent(at location: SeamLocation)
    /// Ends the run of the scenario's calls without a failure, abandoning the threads that
    /// still wait.
    func abandonWaitingThreads()
}

extension Execution: ScenarioRuntime {
    /// The runtime that controls the calling thread, if one does, retained
    /// (``withCurrent(_:)``).
    static var current: (any ScenarioRuntime)? { withCurrent { $0 } }

    /// Calls `body` with the runtime that controls the calling thread, borrowed from the
    /// thread's seam slot, which holds it meanwhile: the one place that asks the seam who runs
    /// this thread, without retaining it, for what a scenario does at every thread it starts
    /// and joins. `nil` when no runtime controls the thread.
    static func withCurrent<Result>(_ body: (any ScenarioRuntime) -> Result) -> Result? {
        // An execution's exact type (the class is final), borrowed as the slot lends it: a
        // cast returned it retained, and it was released after `body`.
        Seam.currentController(ofExactType: Execution.self)?._withUnsafeGuaranteedRef(body)
    }
}
