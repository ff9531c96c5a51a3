import Foundation
import Primitives

/// `CriticalSection` and `ReadWriteCoordinator`, uncontended, against the locks and queues
/// people would otherwise use.
enum LockWorkloads {
    static let criticalSection = Workload("CriticalSection.execute") {
        timedAccesses(through: CriticalSection(), operations: $0)
    }
    static let coordinatorRead = Workload("ReadWriteCoordinator.read") {
        timedAccesses(through: ReadWriteCoordinator(), operations: $0)
    }

    static let comparisons = [
        Comparison(
            criticalSection,
            against: Workload("recursive pthread_mutex lock/unlock") {
                timedAccesses(through: PthreadMutex(recursive: true), operations: $0)
            },
            target: .atMost(1.2)
        ),
        Comparison(
            criticalSection,
            against: Workload("NSRecursiveLock lock/unlock") {
                timedAccesses(through: NSRecursiveLock(), operations: $0)
            },
            target: .none
        ),
        Comparison(
            coordinatorRead,
            against: Workload("pthread_rwlock read lock/unlock") {
                timedAccesses(through: PthreadReadWriteLock(), operations: $0)
            },
            target: .atMost(1.5)
        ),
        Comparison(
            coordinatorRead,
            against: Workload("concurrent DispatchQueue.sync") { operations in
                timedAccesses(
                    through: DispatchQueue(label: "benchmark.concurrent-reads", attributes: .concurrent),
                    operations: operations)
            },
            target: .fasterBy(4)
        ),
        Comparison(
            Workload("ReadWriteCoordinator.enqueueWrite, then a read") { operations in
                let coordinator = ReadWriteCoordinator()
                let counter = WriteCounter()
                let elapsed = timed {
                    for _ in 0..<operations { coordinator.enqueueWrite { counter.value &+= 1 } }
                    // The writes are done once a later read has run.
                    coordinator.read {}
                }
                consume(counter.value)
                return elapsed
            },
            against: Workload("barrier DispatchQueue.async, then a sync") { operations in
                let queue = DispatchQueue(label: "benchmark.barrier-writes", attributes: .concurrent)
                let counter = WriteCounter()
                let elapsed = timed {
                    for _ in 0..<operations { queue.async(flags: .barrier) { counter.value &+= 1 } }
                    queue.sync {}
                }
                consume(counter.value)
                return elapsed
            },
            target: .none
        )
    ]
}

/// A counter only ever changed by write blocks, which run alone.
private final class WriteCounter: @unchecked Sendable {
    var value = 0
}
