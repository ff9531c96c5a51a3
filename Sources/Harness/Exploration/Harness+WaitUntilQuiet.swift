extension Harness {
    /// Suspends the calling task until every other task of the execution started so far has
    /// ended or waits for good (synctest's `Wait`): the tasks the test or scenario started,
    /// their actor jobs and `Task.sleep`s on the virtual clock, and, under
    /// ``ExplorationIsolation/process``, every `Task {}` they started. So a test awaits its
    /// background work without polling or `Task.yield` loops. Call it from a task the harness
    /// runs: the body of an ``ExploredTrait`` test, or a scenario's task. Tasks waiting here at
    /// once are resumed together; a scenario task the scenario has not started yet is not waited
    /// for, nor are the threads it spawned. Outside an execution of the deterministic
    /// scheduler it returns at once.
    public static func waitUntilQuiet() async {
        guard let services = ProcessExecutors.servicesOfCallingThread() else { return }
        await services.waitUntilOthersQuiet()
    }
}
