import Foundation
import Primitives

/// `CriticalSection` and `ReadWriteCoordinator`, uncontended, against the locks and queues
/// people would otherwise use.
enum LockWorkloads {
    static let criticalSection = Workload("CriticalSection.execute") { operations in
        let section = CriticalSection()
        var counter = 0
        let elapsed = timed {
            for _ in 0..<operations { section.execute { counter &+= 1 } }
        }
        consume(counter)
        return elapsed
    }

    static let coordinatorRead = Workload("ReadWriteCoordinator.read") { operations in
        let coordinator = ReadWriteCoordinator()
        let shared = 42
        var sum = 0
        let elapsed = timed {
            for _ in 0..<operations { sum &+= coordinator.read { shared } }
        }
        consume(sum)
        return elapsed
    }

    static let comparisons = [
        Comparison(
            criticalSection,
            against: Workload("recursive pthread_mutex lock/unlock") { operations in
                let mutex = PthreadMutex(recursive: true)
                var counter = 0
                let elapsed = timed {
                    for _ in 0..<operations { mutex.withLock { counter &+= 1 } }
                }
                consume(counter)
                return elapsed
            },
            target: .atMost(1.2)
        ),
        Comparison(
            criticalSection,
            against: Workload("NSRecursiveLock lock/unlock") { operations in
                let lock = NSRecursiveLock()
                var counter = 0
                let elapsed = timed {
                    for _ in 0..<operations {
                        lock.lock()
                        counter &+= 1
                        lock.unlock()
                    }
                }
                consume(counter)
                return elapsed
            },
            target: .none
        ),
        Comparison(
            coordinatorRead,
            against: Workload("pthread_rwlock read lock/unlock") { operations in
                let lock = PthreadReadWriteLock()
                let shared = 42
                var sum = 0
                let elapsed = timed {
                    for _ in 0..<operations { sum &+= lock.withReadLock { shared } }
                }
                consume(sum)
                return elapsed
            },
            target: .atMost(1.5)
        ),
        Comparison(
            coordinatorRead,
            against: Workload("concurrent DispatchQueue.sync") { operations in
                let queue = DispatchQueue(label: "benchmark.concurrent-reads", attributes: .concurrent)
                let shared = 42
                var sum = 0
                let elapsed = timed {
                    for _ in 0..<operations { sum &+= queue.sync { shared } }
                }
                consume(sum)
                return elapsed
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
        ),
    ]
}

/// A counter only ever changed by write blocks, which run alone.
private final class WriteCounter: @unchecked Sendable {
    var value = 0
}
