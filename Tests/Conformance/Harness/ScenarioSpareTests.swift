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
        // Kept alive to the end, so that no two scenarios can share an address.
        let scenarios = AtomicBox<[Scenario]>([])
        let schedules = 50
        let report = try Harness.run(
            "scenario reuse", options: ExplorationOptions(strategy: .random, schedules: schedules, seed: 3)
        ) { scenario in
            scenarios.update { seen in
                if !seen.contains(where: { $0 === scenario }) { seen.append(scenario) }
            }
            let counter = SeamAtomic(0)
            for _ in 0..<2 {
                scenario.spawn { counter.store(counter.load() + 1) }
            }
        }
        #expect(report.failure == nil && report.schedulesRun == schedules)
        #expect(scenarios.load().count == 1, "\(schedules) executions were given \(scenarios.load().count) scenarios")
    }
}
