@testable import Harness
import Primitives
import Testing

/// A worker's executions hand one ``Scenario`` on from one to the next while each ends with
/// its threads joined, rather than each making its own (an object and its list of threads).
@Suite("Harness: a worker's executions share one scenario")
struct ScenarioSpareTests {
    @Test("a spare hands back the scenario kept, once, and makes one when it keeps none")
    func spare() {
        let spare = ScenarioSpare()
        let first = spare.take()
        #expect(spare.take() !== first)
        spare.keep(first)
        #expect(spare.take() === first)
        #expect(spare.take() !== first)
    }

    @Test("every execution of a one-worker exploration that joins its threads is given the same scenario")
    func oneScenarioPerWorker() throws {
        let met = try DistinctObjects<Scenario>.met(in: "scenario reuse", schedules: 50, seed: 3) { scenario in
            let counter = SeamAtomic(0)
            for _ in 0..<2 {
                scenario.spawn { counter.store(counter.load() + 1) }
            }
            return scenario
        }
        #expect(met.report.failure == nil && met.report.schedulesRun == 50)
        #expect(met.count == 1, "50 executions were given \(met.count) scenarios")
    }
}
