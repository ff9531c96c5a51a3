/// Why a ``LinearizabilityTest`` could not run.
public enum LinearizabilityTestError: Error, Sendable, Hashable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case .configuration(let error):
            "\(error)"
        case .noOperations:
            "the linearizability test declares no operation: add some with operation(…) before check()"
        case .asyncOperationsOnThreads:
            "the linearizability test runs its clients on threads (clients(.threads)), but some of its operations are async: a thread cannot call them; use clients(.tasks)"
        case .blockingOperationsOnTasks:
            """
            the linearizability test has synchronous blocking operations (blockingOperation(…)), which run on \
            threads only, but its clients are tasks (clients(.tasks), or an async operation); make every operation \
            synchronous and use clients(.threads), or make the blocking ones async
            """
        case .blockingTasksUnderStress:
            """
            the linearizability test has blocking operations (blockingOperation(…)) and its clients are tasks \
            (clients(.tasks), or an async operation): stress tells a blocked call on threads only; explore it \
            with check(), or make every operation synchronous and use clients(.threads)
            """
        case .generator(let failure):
            "\(failure)"
        case let .scenarioCodeOutdated(code, step, candidate, candidates):
            """
            the replay token's generated scenario \(code) cannot be made again: its shrink step \(step) takes candidate \(candidate), \
            but the scenario there offers \(candidates); the test's operations or generators changed since it was recorded. \
            Run the test without HARNESS_REPLAY to find the failure again
            """
        }
    }
}
