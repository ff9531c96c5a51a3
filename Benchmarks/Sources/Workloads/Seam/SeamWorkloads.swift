import Primitives

/// The seam's own cost on the production path (no controller installed anywhere).
enum SeamWorkloads {
    static let comparisons = [
        Comparison(
            Workload("SeamMutex.withLock") { timedAccesses(through: SeamMutex(), operations: $0) },
            against: Workload("pthread_mutex lock/unlock") { timedAccesses(through: PthreadMutex(), operations: $0) },
            target: .atMost(1.05)
        )
    ]
}
