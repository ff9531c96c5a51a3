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
        let met = try DistinctObjects<CoroutineHandoff>.met(in: "handoff reuse", schedules: 100, seed: 5) { scenario in
            let mutex = SeamMutex()
            let counter = SeamAtomic(0)
            for _ in 0..<2 {
                scenario.spawn { mutex.withLock { counter.store(counter.load() + 1) } }
            }
            let handoff = (Seam.currentController as? Execution)?.backend as? CoroutineHandoff
            Harness.check(handoff != nil, "the scenario's threads run on no coroutine handoff")
            return handoff
        }
        #expect(met.report.failure == nil && met.report.schedulesRun == 100)
        #expect(met.count == 1, "100 executions made \(met.count) handoffs")
    }
}
