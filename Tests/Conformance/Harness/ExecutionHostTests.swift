import CShim
import Harness
import Primitives
import Testing

/// What an exploration's executions cost the OS: the threads they run on are set up once for
/// the exploration, not once for each execution. Observed from inside the scenario, on the
/// OS thread each execution's first thread runs on, so other tests running meanwhile count
/// for nothing.
@Suite("Explorer: OS threads set up once an exploration")
struct ExecutionHostTests {
    @Test(
        "an exploration pins each OS thread its executions run on once, not once an execution",
        arguments: [ScenarioThreads.coroutines, .os], [1, 2])
    func pinsOnce(threads: ScenarioThreads, workers: Int) throws {
        let changes = AtomicBox<[UInt]>([])
        let report = try Harness.run(
            "pins once",
            options: ExplorationOptions(strategy: .random, schedules: 30, seed: 4, threads: threads, workers: workers)
        ) { scenario in
            changes.update { $0.append(UInt(cshim_current_thread_affinity_changes())) }
            let counter = SeamMutex()
            for _ in 0..<2 {
                scenario.spawn {
                    counter.lock()
                    counter.unlock()
                }
            }
        }
        #expect(report.failure == nil)
        #expect(changes.load().count == 30)
        #expect(changes.load().allSatisfy { $0 <= 1 }, "affinity changes seen by T0: \(changes.load())")
    }
}
