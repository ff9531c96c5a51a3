/// Why a linearizability test could not run, in words.
extension LinearizabilityTestError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .configuration(let error):
            "\(error)"
        case .noOperations:
            "the linearizability test declares no operation: add some with operation(…) before check()"
        case .asyncOperationsOnThreads:
            "the linearizability test runs its clients on threads (clients(.threads)), but some of its operations are "
                + "async: a thread cannot call them; use clients(.tasks)"
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
            the replay token's generated scenario \(code) cannot be made again: its shrink step \(step) takes \
            candidate \(candidate), but the scenario there offers \(candidates); the test's operations or \
            generators changed since it was recorded. Run the test without HARNESS_REPLAY to find the failure again
            """
        }
    }
}
