import Primitives

/// Who waits for what when nothing can run, as ``ExecutionFailure/deadlock(waits:cycle:)`` and
/// ``ExecutionFailure/threadsStillRunning(waits:)`` list it: a thread of the scenario, or a
/// task that waits for good.
public enum Wait: Sendable, Hashable, Codable {
    /// A thread of the scenario waits.
    case thread(ThreadWait)
    /// A task waits for good.
    case task(BlockedTask)

    /// The thread's wait, when a thread waits.
    public var threadWait: ThreadWait? {
        if case .thread(let wait) = self { wait } else { nil }
    }
}

/// What a thread of the scenario waits for when nothing can run, and where.
public struct ThreadWait: Sendable, Hashable, Codable {
    /// What the thread waits for.
    public enum Reason: Sendable, Hashable, Codable {
        /// To lock (or, after a condition wait, to lock again) `mutex`, which `holder` holds;
        /// `nil` when no thread holds it.
        case lock(mutex: SharedObject, holder: Int?)
        /// To join the thread `thread`.
        case join(thread: Int)
        /// On `condition`, which no thread left will signal.
        case signal(condition: SharedObject)
        /// To perform `operation`, which cannot run.
        case operation(OperationKind)
    }

    /// The thread that waits.
    public let thread: Int
    /// What it waits for.
    public let reason: Reason
    /// Where it waits; `nil` when the seam gave no location.
    public let location: SeamLocation?

    public init(thread: Int, reason: Reason, location: SeamLocation? = nil) {
        self.thread = thread
        self.reason = reason
        self.location = location
    }

    /// The thread it waits for: the holder of the mutex it wants, or the thread it joins;
    /// `nil` when it waits for no thread.
    public var waitsFor: Int? {
        switch reason {
        case .lock(_, let holder): holder
        case .join(let thread): thread
        case .signal, .operation: nil
        }
    }

    /// The shared object it waits on, when it waits on one.
    public var object: SharedObject? {
        switch reason {
        case .lock(let mutex, _): mutex
        case .signal(let condition): condition
        case .join, .operation: nil
        }
    }
}
