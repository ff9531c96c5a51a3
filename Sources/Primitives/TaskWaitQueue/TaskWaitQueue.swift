/// The continuation a suspended task waits on: resumed with success when it is granted
/// what it waits for, or with `CancellationError` when its task is cancelled first.
typealias TaskWaitContinuation = CheckedContinuation<Void, any Error>

/// A continuation to resume, and what to resume it with: what a primitive's state machine
/// hands back so that the resume happens after its lock is released.
struct TaskWaitResumption {
    /// The suspended waiter.
    let continuation: TaskWaitContinuation
    /// Success when granted, `CancellationError` when cancelled.
    let result: Result<Void, any Error>

    /// Resumes the continuation through the runtime seam. Call it with no lock held.
    func perform() {
        Seam.resume(continuation, with: result)
    }
}

/// The tasks waiting on one async primitive, in arrival order, each with its own state so
/// that a grant, a cancellation and the registration of its continuation can happen in any
/// order. A value type changed only under the owning primitive's lock; it never resumes a
/// continuation itself, it returns them.
///
/// A task waits in two steps, because Swift hands out its continuation only once the task
/// is suspending: the primitive first ``enqueue()``s it (fixing its place in the queue),
/// then, inside `withCheckedThrowingContinuation`, ``register(_:_:)``s its continuation.
/// Its cancellation handler may run at any point, before registration too, and calls
/// ``cancel(_:)``. The primitive grants waiters with ``grantOldest()`` or ``grantAll()``.
/// Whatever happens first decides: a waiter granted before it was cancelled stays granted,
/// and one cancelled before it was granted is skipped by grants and never takes anything.
///
/// Identifiers are never reused, so an event for a waiter that is already gone (a
/// cancellation after its grant) finds nothing and does nothing.
struct TaskWaitQueue {
    /// Names one waiter. Increases in arrival order.
    struct WaiterID: Hashable, Comparable, Sendable {
        fileprivate let rawValue: UInt64

        static func < (lhs: WaiterID, rhs: WaiterID) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Where a waiter is. A waiter leaves the table once it has been resumed.
    private enum Waiter {
        /// Queued; its continuation is not registered yet.
        case queued
        /// Queued and suspended on this continuation.
        case suspended(TaskWaitContinuation)
        /// Granted before it registered its continuation: it resumes successfully at once.
        case grantedBeforeSuspending
        /// Cancelled before it registered its continuation: it resumes with
        /// `CancellationError` at once.
        case cancelledBeforeSuspending
    }

    /// What ``grantOldest()`` did.
    enum Grant {
        /// Nobody was queued; nothing was granted.
        case noWaiter
        /// The oldest waiter was granted before registering its continuation; it will
        /// resume by itself when it registers.
        case grantedBeforeSuspending
        /// The oldest waiter was granted; resume it.
        case resume(TaskWaitResumption)
    }

    private var waiters: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 0
    /// No queued waiter has an identifier below this one: grants scan from here, so each
    /// identifier is passed over at most once.
    private var oldestCandidate: UInt64 = 0

    /// How many waiters are queued (registered or not), that is neither granted nor
    /// cancelled.
    private(set) var count = 0

    /// Whether no waiter is queued.
    var isEmpty: Bool { count == 0 }

    /// Queues a new waiter at the tail and returns its identifier.
    mutating func enqueue() -> WaiterID {
        let id = nextID
        nextID += 1
        waiters[id] = .queued
        count += 1
        return WaiterID(rawValue: id)
    }

    /// The waiter `id` has suspended on `continuation`. Returns the resumption to perform
    /// at once if it was granted or cancelled before this, or `nil` if it now waits.
    mutating func register(_ id: WaiterID, _ continuation: TaskWaitContinuation) -> TaskWaitResumption? {
        switch waiters[id.rawValue] {
        case .queued:
            waiters[id.rawValue] = .suspended(continuation)
            return nil
        case .grantedBeforeSuspending:
            waiters[id.rawValue] = nil
            return TaskWaitResumption(continuation: continuation, result: .success(()))
        case .cancelledBeforeSuspending:
            waiters[id.rawValue] = nil
            return TaskWaitResumption(continuation: continuation, result: .failure(CancellationError()))
        case .suspended:
            preconditionFailure("TaskWaitQueue: waiter \(id.rawValue) registered its continuation twice")
        case nil:
            preconditionFailure("TaskWaitQueue: waiter \(id.rawValue) registered but was never queued")
        }
    }

    /// The task of waiter `id` was cancelled. If the waiter was still queued it leaves the
    /// queue, and the resumption (with `CancellationError`) is returned when it had
    /// suspended already. A waiter already granted, or already gone, is left alone.
    mutating func cancel(_ id: WaiterID) -> TaskWaitResumption? {
        switch waiters[id.rawValue] {
        case .queued:
            waiters[id.rawValue] = .cancelledBeforeSuspending
            count -= 1
            return nil
        case .suspended(let continuation):
            waiters[id.rawValue] = nil
            count -= 1
            return TaskWaitResumption(continuation: continuation, result: .failure(CancellationError()))
        case .grantedBeforeSuspending, .cancelledBeforeSuspending, nil:
            return nil
        }
    }

    /// Grants the oldest queued waiter, skipping those cancelled.
    mutating func grantOldest() -> Grant {
        guard !isEmpty else {
            oldestCandidate = nextID
            return .noWaiter
        }
        while oldestCandidate < nextID {
            let id = oldestCandidate
            oldestCandidate += 1
            if let grant = grant(id) { return grant }
        }
        preconditionFailure("TaskWaitQueue: \(count) waiters counted but none queued")
    }

    /// Grants every queued waiter and returns the resumptions of those suspended, oldest
    /// first (an order that does not depend on hashing, so that a deterministic scheduler
    /// sees the same resumes in the same order on every run).
    mutating func grantAll() -> [TaskWaitResumption] {
        var resumptions: [TaskWaitResumption] = []
        resumptions.reserveCapacity(count)
        while oldestCandidate < nextID {
            let id = oldestCandidate
            oldestCandidate += 1
            if case .resume(let resumption) = grant(id) { resumptions.append(resumption) }
        }
        assert(count == 0, "TaskWaitQueue: \(count) waiters left after granting all")
        return resumptions
    }

    /// Grants waiter `id` if it is queued; returns `nil` if it is not.
    private mutating func grant(_ id: UInt64) -> Grant? {
        switch waiters[id] {
        case .queued:
            waiters[id] = .grantedBeforeSuspending
            count -= 1
            return .grantedBeforeSuspending
        case .suspended(let continuation):
            waiters[id] = nil
            count -= 1
            return .resume(TaskWaitResumption(continuation: continuation, result: .success(())))
        case .grantedBeforeSuspending, .cancelledBeforeSuspending, nil:
            return nil
        }
    }
}
