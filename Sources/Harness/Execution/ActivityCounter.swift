import Synchronization

/// Counts the steps of one exploration, from any thread: how a stall is told
/// from slow progress, and how an isolated child tells its parent it is alive.
final class ActivityCounter: Sendable {
    private let counter = Atomic<Int>(0)
    private let runnableChecks = Atomic<Int>(0)

    /// Every step counted so far; it changes whenever the exploration makes progress.
    var steps: Int { counter.load(ordering: .relaxed) }

    /// Steps, and stall checks that found the running thread runnable (computing, or waiting
    /// for a CPU on a busy machine): it changes whenever the exploration is alive.
    var signsOfLife: Int { steps &+ runnableChecks.load(ordering: .relaxed) }

    /// Counts a step.
    func noteStep() {
        counter.add(1, ordering: .relaxed)
    }

    /// Counts a stall check that found the running thread runnable.
    func noteRunnable() {
        runnableChecks.add(1, ordering: .relaxed)
    }
}
