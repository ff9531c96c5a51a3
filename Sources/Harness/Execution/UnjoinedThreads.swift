import Primitives

/// Threads the harness spawned for an execution's scenario and its tasks (a scenario
/// thread, an executor lane) that their owner has not joined yet: a ``Scenario`` keeps those
/// its body has not joined, to join them when it returns; the execution keeps them all, and
/// when a failure unwinds the code that would have joined them, reaps them once every thread
/// finished.
struct UnjoinedThreads {
    private var threads: [SeamThread] = []

    /// `thread` must be joined.
    mutating func add(_ thread: SeamThread) {
        // Room for a small scenario's threads at the first: one allocation, not one per doubling.
        if threads.capacity == 0 { threads.reserveCapacity(Self.expectedThreads) }
        threads.append(thread)
    }

    /// The threads an execution is given room for at its first.
    private static var expectedThreads: Int { 8 }

    /// The first of the threads, in the order they were added.
    var first: SeamThread? { threads.first }

    /// `thread`'s owner joined it.
    mutating func remove(_ thread: SeamThread) {
        // A thread is added once: the first match is the only one.
        if let index = threads.firstIndex(where: { $0.controlledID == thread.controlledID }) {
            threads.remove(at: index)
        }
    }

    /// Joins every thread left; each has finished or is about to.
    mutating func joinAll() {
        for thread in threads {
            do {
                try thread.join()
            } catch {
                preconditionFailure("joining an abandoned harness thread failed: \(error)")
            }
        }
        threads.empty()
    }
}
