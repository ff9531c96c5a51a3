@testable import Harness
import Primitives
import Testing

/// A runner's executions take turns with one ``CoroutineHandoff``, reset between them, rather
/// than each making its own (six allocations an execution). That they still behave as on a
/// fresh handoff is `CoroutineBackendTests`' concern: the same tokens on both backends.
@Suite(
    "Harness: a runner's executions share one coroutine handoff",
    .disabled(if: ScenarioThreads.platformDefault != .coroutines, "coroutines are not the default here"))
struct HandoffReuseTests {
    @Test("every execution of a one-worker exploration runs its coroutines on the same handoff")
    func oneHandoffPerRunner() throws {
        // Kept alive to the end, so that no two handoffs can share an address.
        let handoffs = AtomicBox<[CoroutineHandoff]>([])
        let schedules = 100
        let report = try Harness.run(
            "handoff reuse", options: ExplorationOptions(strategy: .random, schedules: schedules, seed: 5)
        ) { scenario in
            guard let handoff = (Seam.currentController as? Execution)?.backend as? CoroutineHandoff else {
                Harness.check(false, "the scenario's threads run on no coroutine handoff")
                return
            }
            handoffs.update { seen in
                if !seen.contains(where: { $0 === handoff }) { seen.append(handoff) }
            }
            let mutex = SeamMutex()
            let counter = SeamAtomic(0)
            for _ in 0..<2 {
                scenario.spawn { mutex.withLock { counter.store(counter.load() + 1) } }
            }
        }
        #expect(report.failure == nil && report.schedulesRun == schedules)
        #expect(handoffs.load().count == 1, "\(schedules) executions made \(handoffs.load().count) handoffs")
    }
}
