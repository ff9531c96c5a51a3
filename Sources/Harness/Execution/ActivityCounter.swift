import Synchronization

/// Counts what one worker's executions do, from any thread: how a stall is told from slow
/// progress. Each worker of an exploration counts on one of its own
/// (``ExplorationActivity/counter(forWorker:)``), which lies on a cache line of its own: a
/// count that two workers shared made both cores contend for it at every step.
final class ActivityCounter: Sendable {
    private let counter = Atomic<Int>(0)
    private let runnableChecks = Atomic<Int>(0)
    /// Keeps the next counter's words off this one's cache line.
    private let padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )

    /// Every step counted so far; it changes whenever the worker makes progress.
    var steps: Int { counter.load(ordering: .relaxed) }

    /// Steps and stall checks that found the running thread runnable: it changes whenever
    /// the worker is alive.
    var signsOfLife: Int { steps &+ runnableChecks.load(ordering: .relaxed) }

    /// Counts a step.
    func noteStep() {
        counter.add(1, ordering: .relaxed)
    }

    /// Counts a stall check that found the running thread runnable (computing, or waiting
    /// for a CPU on a busy machine).
    func noteRunnable() {
        runnableChecks.add(1, ordering: .relaxed)
    }
}
