import CShim
@testable import Harness
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
        // Not an `AtomicBox`: two workers run executions at once, each with a scheduler of
        // its own, and a seam-aware value shared between them is not theirs to order.
        let changes = DirectlyLocked<[UInt]>([])
        let report = try Harness.run(
            "pins once",
            options: ExplorationOptions(strategy: .random, schedules: 30, seed: 4, threads: threads, workers: workers)
        ) { scenario in
            changes.withLock { $0.append(UInt(cshim_current_thread_affinity_changes())) }
            let counter = SeamMutex()
            for _ in 0..<2 {
                scenario.spawn {
                    counter.lock()
                    counter.unlock()
                }
            }
        }
        #expect(report.failure == nil)
        let seen = changes.withLock { $0 }
        #expect(seen.count == 30)
        #expect(seen.allSatisfy { $0 <= 1 }, "affinity changes seen by T0: \(seen)")
    }

    /// The exploring thread runs on one CPU; its workers spread over the CPUs it could use
    /// before, not over the one it is pinned to (which put two workers on one CPU).
    @Test("the exploring thread runs on one CPU and hands its workers the CPUs it could use before")
    func workersGetTheCPUsFromBefore() {
        let before = Self.allowedCPUs()
        guard !before.isEmpty else { return }
        Explorer.onOneCPU { cpu, allowed in
            #expect(allowed == before)
            #expect(Self.allowedCPUs() == cpu.map { [$0] })
        }
        #expect(Self.allowedCPUs() == before)
    }

    /// The CPUs the calling thread may run on; empty where the platform does not say.
    private static func allowedCPUs() -> [Int32] {
        var allowed = [Int32](repeating: 0, count: 1_024)
        let count = Int(cshim_allowed_cpus(&allowed, Int32(allowed.count)))
        return Array(allowed.prefix(max(0, count)))
    }
}
