import Dispatch
import Primitives

/// `WorkerThread` against a serial dispatch queue: queueing work for another thread, and a
/// round trip to it.
enum WorkerWorkloads {
    static let comparisons = [
        Comparison(
            Workload("WorkerThread.submit, then a sync") { operations in
                let worker = startedWorker()
                defer { worker.stop() }
                let counter = WorkerCounter()
                return timed {
                    mustSucceed {
                        for _ in 0..<operations { try worker.submit { counter.value &+= 1 } }
                        try worker.sync {}
                    }
                }
            },
            against: Workload("serial DispatchQueue.async, then a sync") { operations in
                let queue = DispatchQueue(label: "benchmark.serial-submits")
                let counter = WorkerCounter()
                return timed {
                    for _ in 0..<operations { queue.async { counter.value &+= 1 } }
                    queue.sync {}
                }
            },
            target: .none
        ),
        Comparison(
            Workload("WorkerThread.sync round trip") { operations in
                let worker = startedWorker()
                defer { worker.stop() }
                return timed {
                    mustSucceed {
                        for _ in 0..<operations { try worker.sync {} }
                    }
                }
            },
            against: Workload("serial DispatchQueue.async + DispatchSemaphore round trip") { operations in
                let queue = DispatchQueue(label: "benchmark.serial-round-trips")
                let done = DispatchSemaphore(value: 0)
                return timed {
                    for _ in 0..<operations {
                        queue.async { done.signal() }
                        done.wait()
                    }
                }
            },
            target: .none
        )
    ]

    private static func startedWorker() -> WorkerThread {
        let worker = WorkerThread()
        mustSucceed { try worker.start() }
        return worker
    }
}

/// A counter changed only by work items, which one thread runs one at a time.
private final class WorkerCounter: @unchecked Sendable {
    var value = 0
}
