import Synchronization

/// Counts the steps of one exploration, from any thread: how a stall is told
/// from slow progress, and how an isolated child tells its parent it is alive.
final class ActivityCounter: Sendable {
    private let counter = Atomic<Int>(0)

    /// Everything counted so far; it changes whenever the exploration makes progress.
    var steps: Int { counter.load(ordering: .relaxed) }

    /// Counts a step.
    func noteStep() {
        counter.add(1, ordering: .relaxed)
    }
}
