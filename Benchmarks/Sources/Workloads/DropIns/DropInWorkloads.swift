import Dispatch
import Primitives
import Synchronization

/// The drop-ins' production paths (no controller anywhere) against the originals they
/// replace: `Synchronization.Mutex` and `Atomic`, `DispatchQueue`, `DispatchGroup` and
/// `DispatchSemaphore`, uncontended.
enum DropInWorkloads {
    static let comparisons = [
        Comparison(
            Workload("HarnessMutex.withLock") { operations in
                let mutex = HarnessMutex(0)
                let elapsed = timed {
                    for _ in 0..<operations { mutex.withLock { $0 &+= 1 } }
                }
                consume(mutex.withLock { $0 })
                return elapsed
            },
            against: Workload("Synchronization.Mutex.withLock") { operations in
                let mutex = Mutex(0)
                let elapsed = timed {
                    for _ in 0..<operations { mutex.withLock { $0 &+= 1 } }
                }
                consume(mutex.withLock { $0 })
                return elapsed
            },
            target: .atMost(1.1)
        ),
        Comparison(
            Workload("HarnessAtomic<Int>.wrappingAdd") { operations in
                let cell = HarnessAtomic(0)
                let elapsed = timed {
                    for _ in 0..<operations { cell.wrappingAdd(1, ordering: .relaxed) }
                }
                consume(cell.load(ordering: .relaxed))
                return elapsed
            },
            against: Workload("Atomic<Int>.wrappingAdd") { operations in
                let cell = Atomic(0)
                let elapsed = timed {
                    for _ in 0..<operations { cell.wrappingAdd(1, ordering: .relaxed) }
                }
                consume(cell.load(ordering: .relaxed))
                return elapsed
            },
            target: .atMost(1.1)
        ),
        Comparison(
            Workload("HarnessAtomic<Int>.compareExchange") { operations in
                let cell = HarnessAtomic(0)
                var value = 0
                let elapsed = timed {
                    for _ in 0..<operations {
                        value =
                            cell.compareExchange(expected: value, desired: value &+ 1, ordering: .acquiringAndReleasing)
                            .original &+ 1
                    }
                }
                consume(value)
                return elapsed
            },
            against: Workload("Atomic<Int>.compareExchange") { operations in
                let cell = Atomic(0)
                var value = 0
                let elapsed = timed {
                    for _ in 0..<operations {
                        value =
                            cell.compareExchange(expected: value, desired: value &+ 1, ordering: .acquiringAndReleasing)
                            .original &+ 1
                    }
                }
                consume(value)
                return elapsed
            },
            target: .atMost(1.1)
        ),
        Comparison(
            Workload("serial HarnessDispatchQueue.sync") {
                timedAccesses(through: HarnessDispatchQueue(label: "benchmark.drop-in.serial"), operations: $0)
            },
            against: Workload("serial DispatchQueue.sync") {
                timedAccesses(through: DispatchQueue(label: "benchmark.serial"), operations: $0)
            },
            target: .atMost(1.1)
        ),
        Comparison(
            Workload("concurrent HarnessDispatchQueue.sync") { operations in
                timedAccesses(
                    through: HarnessDispatchQueue(label: "benchmark.drop-in.concurrent", attributes: .concurrent),
                    operations: operations)
            },
            against: Workload("concurrent DispatchQueue.sync") { operations in
                timedAccesses(
                    through: DispatchQueue(label: "benchmark.concurrent", attributes: .concurrent),
                    operations: operations)
            },
            target: .atMost(1.1)
        ),
        Comparison(
            Workload("HarnessDispatchQueue barrier async, then a sync") { operations in
                let queue = HarnessDispatchQueue(label: "benchmark.drop-in.barrier", attributes: .concurrent)
                let counter = BarrierCounter()
                let elapsed = timed {
                    for _ in 0..<operations { queue.async(flags: .barrier) { counter.value &+= 1 } }
                    queue.sync {}
                }
                consume(counter.value)
                return elapsed
            },
            against: Workload("DispatchQueue barrier async, then a sync") { operations in
                let queue = DispatchQueue(label: "benchmark.barrier", attributes: .concurrent)
                let counter = BarrierCounter()
                let elapsed = timed {
                    for _ in 0..<operations { queue.async(flags: .barrier) { counter.value &+= 1 } }
                    queue.sync {}
                }
                consume(counter.value)
                return elapsed
            },
            target: .atMost(1.1)
        ),
        Comparison(
            Workload("HarnessDispatchSemaphore signal + wait") { operations in
                let semaphore = HarnessDispatchSemaphore(value: 0)
                return timed {
                    for _ in 0..<operations {
                        semaphore.signal()
                        semaphore.wait()
                    }
                }
            },
            against: Workload("DispatchSemaphore signal + wait") { operations in
                let semaphore = DispatchSemaphore(value: 0)
                return timed {
                    for _ in 0..<operations {
                        semaphore.signal()
                        semaphore.wait()
                    }
                }
            },
            target: .atMost(1.1)
        ),
        Comparison(
            Workload("HarnessDispatchGroup enter + leave") { operations in
                let group = HarnessDispatchGroup()
                return timed {
                    for _ in 0..<operations {
                        group.enter()
                        group.leave()
                    }
                }
            },
            against: Workload("DispatchGroup enter + leave") { operations in
                let group = DispatchGroup()
                return timed {
                    for _ in 0..<operations {
                        group.enter()
                        group.leave()
                    }
                }
            },
            target: .atMost(1.1)
        )
    ]
}

/// A counter only barrier blocks change, which run alone.
private final class BarrierCounter: @unchecked Sendable {
    var value = 0
}
