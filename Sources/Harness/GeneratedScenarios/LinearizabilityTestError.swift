/// Why a ``LinearizabilityTest`` could not run; its words are in `Report/` (``description``).
public enum LinearizabilityTestError: Error, Sendable, Hashable {
    /// A setting is invalid, or the replay token does not fit.
    case configuration(HarnessConfigurationError)
    /// The test declares no operation.
    case noOperations
    /// ``ScenarioClients/threads`` was asked for, but some operation is `async`.
    case asyncOperationsOnThreads
    /// Some synchronous operation is blocking, but the clients are tasks
    /// (``ScenarioClients/tasks`` was asked for, or some operation is `async`): a call that
    /// waits on a thread would hold one of the executor's threads.
    case blockingOperationsOnTasks
    /// Under stress, some operation is blocking and the clients are tasks
    /// (``ScenarioClients/tasks`` was asked for, or some operation is `async`): stress tells
    /// a blocked call on threads only, by their waits on a `SeamCondition`.
    case blockingTasksUnderStress
    /// A generator could not produce a value.
    case generator(GeneratorFailure)
    /// The replay token's scenario code takes, at shrink step `step`, candidate `candidate`,
    /// but the scenario there offers only `candidates`: the test's operations or generators
    /// changed since the token was recorded.
    case scenarioCodeOutdated(code: String, step: Int, candidate: Int, candidates: Int)
}
