import CShim
import Synchronization

/// The barrier a stress iteration's spawned threads start behind, so that their work
/// overlaps instead of running one thread after another as the threads are created.
///
/// Waiters spin, yielding the processor, rather than sleep: a woken sleeper starts tens of
/// microseconds after the others, longer than most scenario threads run. A waiter goes on
/// by itself after ``patience``, so a scenario whose root thread waits for a gated thread
/// outside the seam (a semaphore, a plain variable), where the gate cannot see it, still
/// ends, only slower.
final class StressGate: Sendable {
    /// How long a thread waits for the gate at most.
    static let patience: Duration = .milliseconds(100)

    private let opened = Atomic(false)

    /// Whether the gate has been opened.
    var isOpen: Bool { opened.load(ordering: .acquiring) }

    /// Releases every thread waiting, and every thread that comes later.
    func open() {
        opened.store(true, ordering: .releasing)
    }

    /// Returns once the gate is open, or after ``patience``.
    func wait() {
        let deadline = ContinuousClock.now + Self.patience
        var spins = 0
        while !opened.load(ordering: .acquiring) {
            spins += 1
            if spins % 64 == 0 {
                if ContinuousClock.now >= deadline { return }
                sched_yield()
            }
        }
    }
}
