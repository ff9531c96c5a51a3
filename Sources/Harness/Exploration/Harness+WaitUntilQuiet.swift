extension Harness {
    /// Suspends the calling task until every other task of the execution has ended or waits for
    /// good (synctest's `Wait`): the tasks the test or scenario started, their actor jobs and
    /// `Task.sleep`s on the virtual clock, and, under ``ExplorationIsolation/process``, every
    /// `Task {}` they started. So a test awaits its background work without polling or
    /// `Task.yield` loops. Call it from a task the harness runs: the body of an
    /// ``ExploredTrait`` test, or a scenario's task; several such tasks may wait at once and
    /// are resumed together. Threads the scenario spawned are not waited for. Outside an
    /// execution of the deterministic scheduler it returns at once.
    public static func waitUntilQuiet() async {
        guard let services = ProcessExecutors.servicesOfCallingThread() else { return }
        await services.waitUntilOthersQuiet()
    }
}
