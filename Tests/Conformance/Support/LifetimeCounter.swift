import Synchronization

/// Counts live instances of `Tracked`, to show that nothing is leaked.
final class LifetimeCounter: Sendable {
    private let live = Atomic<Int>(0)
    private let created = Atomic<Int>(0)

    /// Instances created and not yet deinitialized.
    var liveCount: Int { live.load(ordering: .sequentiallyConsistent) }
    /// Instances created in all.
    var createdCount: Int { created.load(ordering: .sequentiallyConsistent) }

    /// An object whose life this counter tracks.
    final class Tracked: Sendable {
        let counter: LifetimeCounter

        init(_ counter: LifetimeCounter) {
            self.counter = counter
            counter.live.add(1, ordering: .sequentiallyConsistent)
            counter.created.add(1, ordering: .sequentiallyConsistent)
        }

        deinit { counter.live.subtract(1, ordering: .sequentiallyConsistent) }
    }

    func make() -> Tracked { Tracked(self) }
}
