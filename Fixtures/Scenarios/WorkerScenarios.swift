import Harness
import Primitives

/// What the worker scenarios need of a worker thread.
public protocol StartStopWorker: Sendable {
    /// Starts the worker.
    func start()
    /// Queues `work` to run on the worker.
    func submit(_ work: @escaping @Sendable () -> Void)
    /// Returns once the worker has run its queued work and exited.
    func stop()
}

extension SeedWorkerThread: StartStopWorker {}

/// Scenarios for worker threads.
public enum WorkerScenarios {
    /// Work submitted before `stop()` has run when `stop()` returns.
    public static func stopDrainsWork<Worker: StartStopWorker>(_ worker: @escaping @Sendable () -> Worker) -> @Sendable (Scenario) -> Void {
        { _ in
            let worker = worker()
            let ran = SeamAtomic(0)
            worker.start()
            for _ in 0..<2 { worker.submit { ran.add(1) } }
            worker.stop()
            Harness.check(ran.load() == 2, "stop() returned with \(2 - ran.load()) submitted items not run")
        }
    }
}
