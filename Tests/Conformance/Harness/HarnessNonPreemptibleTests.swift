import Foundation
import Harness
import Primitives
import Testing

@Suite("Harness: non-preemptible regions")
struct HarnessNonPreemptibleTests {
    /// The shape of a task cancelled while its waiter is being resumed, with threads only.
    /// `unseen` stands for a lock of the Swift runtime that the seam does not model (the
    /// cancelled task's status record lock): B runs a cancellation handler under it, without
    /// preemption, and blocks on `mutex`, which A holds; C is at a scheduling point from which
    /// it goes on to take `unseen` (resuming the task's continuation). Until B can run, only A
    /// may: a schedule that lets C run first blocks C outside the seam, a stall that cannot
    /// happen without the harness (A would release `mutex` on its own).
    @Sendable static func blockedUnderUnseenLock(_ scenario: Scenario) {
        let mutex = SeamMutex()
        let unseen = NSLock()
        let handled = SeamAtomic(false)
        scenario.spawn {
            mutex.withLock { _ = handled.load() }
        }
        scenario.spawn {
            Seam.withoutPreemption {
                unseen.lock()
                mutex.withLock { handled.store(true) }
                unseen.unlock()
            }
        }
        scenario.spawn {
            _ = handled.load()
            unseen.lock()
            unseen.unlock()
        }
        scenario.joinAll()
        Harness.check(handled.load(), "the handler did not run")
    }

    @Test("a thread blocked in a non-preemptible region lets only the thread it waits for run")
    func blockedRegionRunsItsBlocker() throws {
        let options = ExplorationOptions(
            strategy: .exhaustive(preemptionBound: 2), schedules: 5_000, stallTimeout: .seconds(5))
        let report = try Harness.run("blocked under an unseen lock", options: options, Self.blockedUnderUnseenLock)
        #expect(report.failure == nil, "\(String(describing: report.failure?.reason))")
        #expect(report.exhausted)
    }
}
