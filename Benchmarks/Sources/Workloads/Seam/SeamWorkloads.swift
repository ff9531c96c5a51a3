import Primitives

/// The seam's own cost on the production path (no controller installed anywhere).
enum SeamWorkloads {
    static let comparisons = [
        Comparison(
            Workload("SeamMutex.withLock") { operations in
                let mutex = SeamMutex()
                var counter = 0
                let elapsed = timed {
                    for _ in 0..<operations { mutex.withLock { counter &+= 1 } }
                }
                consume(counter)
                return elapsed
            },
            against: Workload("pthread_mutex lock/unlock") { operations in
                let mutex = PthreadMutex()
                var counter = 0
                let elapsed = timed {
                    for _ in 0..<operations { mutex.withLock { counter &+= 1 } }
                }
                consume(counter)
                return elapsed
            },
            target: .atMost(1.05)
        ),
    ]
}
