/// How an exploration is protected from a crash of the code it runs.
public enum ExplorationIsolation: String, Sendable, Hashable, Codable {
    /// In the test's own process: a crash ends the process, after printing the replay
    /// command of the crashing schedule.
    case none
    /// In a child process running the same test, filtered to it and told which scenario to
    /// explore: a crash ends only the child, and comes back as a failure with the runtime's
    /// message, the crashing frames and the replay token (a stack overflow too); a child
    /// killed from outside (`kill -9`, the OOM killer) comes back as killed, with the token of
    /// the schedule it was running. In the child the harness owns the
    /// process's default and main executors, so `Task {}`, `Task.detached`, `MainActor` jobs
    /// and system-clock sleeps of the scenario run under it. Costs a process launch per
    /// exploration (tens of milliseconds). The child ends when the test's process does,
    /// and is killed when it shows no sign of life (a step, or its running thread runnable)
    /// for the stall timeout plus ``Harness/childGraceSeconds``.
    case process
}
