/// Every comparison the benchmarks make, by group, in the order the table prints them.
public enum Catalog {
    /// The seam's production path against raw pthreads.
    public static let seam = SeamWorkloads.comparisons
    /// The drop-ins' production paths against `Synchronization.Mutex`, `Atomic` and Dispatch.
    public static let dropIns = DropInWorkloads.comparisons
    /// `CriticalSection` and `ReadWriteCoordinator` against pthread locks, Foundation and
    /// Dispatch.
    public static let locks = LockWorkloads.comparisons
    /// `ThreadLocalValue` against POSIX thread-specific storage and Foundation.
    public static let threadLocals = ThreadLocalWorkloads.comparisons

    /// `AtomicBox` against a mutex-protected box, `IOThread` against a raw thread.
    public static let threads = ThreadWorkloads.comparisons

    /// `WorkerThread` against a serial dispatch queue.
    public static let workers = WorkerWorkloads.comparisons

    /// `ConcurrencyLimiter` and `AsyncCondition` against the seed's design and bare
    /// continuations.
    public static let async = AsyncWorkloads.comparisons
    /// `AsyncFileStream` against `FileHandle` and plain system calls.
    public static let files = FileWorkloads.comparisons

    /// The linearizability checker against replaying one known linearization of the same
    /// history (the least any checker must do), with absolute goals.
    public static let linearizability = LinearizabilityWorkloads.comparisons

    /// The groups: a title and its comparisons.
    public static let groups: [(title: String, comparisons: [Comparison])] = [
        ("Seam (production path, no controller)", seam),
        ("Drop-ins (production path, no controller, uncontended)", dropIns),
        ("CriticalSection and ReadWriteCoordinator (uncontended)", locks),
        ("ThreadLocalValue", threadLocals),
        ("AtomicBox and IOThread", threads),
        ("WorkerThread", workers),
        ("ConcurrencyLimiter and AsyncCondition", async),
        ("AsyncFileStream (64 KiB chunks, page cache)", files),
        ("Linearizability checking (one operation is one whole check)", linearizability)
    ]
}
