import Harness
import Synchronization
import Testing

@Suite("Harness: the task executor")
struct AsyncServicesTests {
    /// A continuation a scenario's task left suspended, kept for after the exploration.
    private final class Parked: Sendable {
        let continuation = Mutex<UnsafeContinuation<Void, Never>?>(nil)
        let resumed = Atomic<Bool>(false)
    }

    @Test("a job that arrives from outside once its execution has ended is dropped, and the process goes on")
    func lateOutsideJob() throws {
        let parked = Parked()
        let report = try Harness.run("late job", options: ExplorationOptions(schedules: 1)) { scenario in
            scenario.task {
                await withUnsafeContinuation { continuation in parked.continuation.withLock { $0 = continuation } }
                parked.resumed.store(true, ordering: .releasing)
            }
        }
        guard case .tasksDeadlocked? = report.failure?.reason else {
            Issue.record("expected the task to wait for good, got \(String(describing: report.failure?.reason))")
            return
        }
        let continuation = try #require(parked.continuation.withLock { $0.take() })
        // The task prefers the ended execution's executor: its job arrives there, from a
        // thread no execution controls.
        continuation.resume()
        let resumed = parked.resumed.load(ordering: .acquiring)
        #expect(!resumed)
    }
}
