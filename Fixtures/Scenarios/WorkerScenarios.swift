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
    public static func stopDrainsWork<Worker: StartStopWorker>(_ worker: @escaping @Sendable () -> Worker)
        -> @Sendable (Scenario) -> Void
    {
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

/// The real ``WorkerThread`` as the scenarios see it.
public final class LiveWorkerThread: StartStopWorker {
    /// The worker under test.
    public let base = WorkerThread()

    /// A worker that is not started.
    public init() {}

    public func start() {
        do {
            _ = try base.start()
        } catch {
            Harness.check(false, "start failed: \(error)")
        }
    }

    public func submit(_ work: @escaping @Sendable () -> Void) {
        do {
            try base.submit(work)
        } catch {
            Harness.check(false, "submit failed: \(error)")
        }
    }

    public func stop() { base.stop() }
}

extension WorkerScenarios {
    /// Two threads submit while a third stops the worker: every accepted item runs exactly
    /// once, on the worker, in each submitter's order; a refused one is refused with
    /// `.stopped`; and a second `stop()` is harmless.
    @Sendable public static func startSubmitStopRace(_ scenario: Scenario) {
        let worker = WorkerThread()
        let ran = AtomicBox<[Int]>([])
        let accepted = AtomicBox<[Int]>([])
        do {
            _ = try worker.start()
        } catch {
            Harness.check(false, "start failed: \(error)")
        }
        for submitter in 0..<2 {
            scenario.spawn {
                for item in [submitter * 10, submitter * 10 + 1] {
                    do throws(WorkerThreadError) {
                        try worker.submit {
                            Harness.check(worker.isCurrent, "work ran off the worker thread")
                            ran.update { $0.append(item) }
                        }
                        accepted.update { $0.append(item) }
                    } catch {
                        Harness.check(error == .stopped, "submit failed with \(error)")
                    }
                }
            }
        }
        scenario.spawn { worker.stop() }
        scenario.joinAll()
        worker.stop()
        let done = ran.load()
        Harness.check(done.sorted() == accepted.load().sorted(), "ran \(done), accepted \(accepted.load())")
        for submitter in 0..<2 {
            let own = done.filter { $0 / 10 == submitter }
            Harness.check(own == own.sorted(), "submitter \(submitter)'s work ran out of order: \(own)")
        }
    }
}
