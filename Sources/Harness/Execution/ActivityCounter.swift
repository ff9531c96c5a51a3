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

    /// Counts a step. One execution at a time takes steps on a worker's counter, one thread
    /// at a time, each handed the execution by the one before (release and acquire): a load
    /// and a store count it, without the locked read-modify-write an `add` costs at every
    /// step. (A thread of a stalled execution, left behind, may still count a step meanwhile,
    /// and so may a worker past the eighth, which shares a counter: each may lose a count, and
    /// a heartbeat only needs to change.)
    func noteStep() {
        counter.store(counter.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// Counts a stall check that found the running thread runnable (computing, or waiting
    /// for a CPU on a busy machine).
    func noteRunnable() {
        runnableChecks.add(1, ordering: .relaxed)
    }
}
