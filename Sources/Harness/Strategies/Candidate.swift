/// What the scheduler can do next: every decision of an execution, whichever strategy
/// makes it, is a choice among candidates of this one model.
enum Choice: Hashable {
    /// The thread performs its pending operation.
    case thread(Int)
    /// The thread, waiting on a condition, wakes without a signal, as POSIX allows.
    case spuriousWake(Int)
    /// A task-executor lane runs the queued job.
    case job(JobIdentity)
    /// The virtual clock moves to the earliest deadline now, while other work could still
    /// run: a timeout racing progress.
    case advanceClock

    /// Who the choice lets run: what PCT gives a priority and SURW a weight.
    var entity: Entity {
        switch self {
        case .thread(let thread), .spuriousWake(let thread): .thread(thread)
        case .job(let job): job.task.map(Entity.task) ?? .job(job.enqueueOrder)
        case .advanceClock: .clock
        }
    }

    /// Whether the choice is an event the scheduler injects (a spurious wake-up, an early
    /// timeout) rather than a step some thread or job is waiting to take: strategies take
    /// one now and then, and exhaustive search counts one as a preemption.
    var isInjected: Bool {
        switch self {
        case .spuriousWake, .advanceClock: true
        case .thread, .job: false
        }
    }
}

/// A queued job, named so that the name survives from one execution to the next as far as
/// the program lets it: by the task it runs and by its place in the execution's enqueue
/// order.
struct JobIdentity: Hashable {
    /// The task the job runs, numbered from 0 in the order the execution first enqueued a
    /// job of each task; `nil` for a job that runs no task (a default actor draining its
    /// queue).
    let task: Int?
    /// How many jobs the execution enqueued before this one.
    let enqueueOrder: Int
}

/// A schedulable thing that lives through several choices: a thread, a task (all its jobs),
/// or a job that runs no task.
enum Entity: Hashable {
    case thread(Int)
    case task(Int)
    case job(Int)
    /// The virtual clock, for early timeouts.
    case clock
}

/// The shared state a choice's operation touches, for strategies that order only
/// conflicting operations (POS) or weight the interesting ones (SURW).
struct Access: Hashable {
    enum Object: Hashable {
        /// A seam mutex, condition or atomic cell.
        case shared(ObjectIdentifier)
        /// A thread's cancellation request.
        case cancellation(ofThread: Int)
        /// The queue of the scenario's task executor.
        case jobQueue
    }

    let object: Object
    /// Whether the operation only reads the object.
    let isRead: Bool

    /// Whether the two operations race: they touch the same object and one of them writes.
    func conflicts(with other: Access) -> Bool {
        object == other.object && !(isRead && other.isRead)
    }
}

/// One option of a decision: the choice, and what its operation touches (`nil` for an
/// operation on no shared state, which commutes with every other).
struct Candidate: Hashable {
    let choice: Choice
    let access: Access?
    /// Whether an earlier candidate is the same step up to renaming: an idle task-executor
    /// lane about to take the same operation as another idle lane. Lanes are interchangeable,
    /// so a schedule that runs this one is the other's with the lanes' names swapped;
    /// exhaustive search skips it, sampling strategies need not.
    let isSymmetricCopy: Bool

    init(_ choice: Choice, access: Access? = nil, isSymmetricCopy: Bool = false) {
        self.choice = choice
        self.access = access
        self.isSymmetricCopy = isSymmetricCopy
    }
}

/// The candidates of one decision, as a strategy reads them: a view of storage its caller
/// keeps (the model's ``CandidateList``, or an array), valid during the call it is passed to.
/// Candidates hold no references, so that storage is plain memory, which the model fills and
/// empties at every decision without the uniqueness checks an array makes at every change.
struct Candidates: RandomAccessCollection {
    private let base: UnsafePointer<Candidate>?
    let count: Int

    /// The candidates in `buffer`, which must outlive the view.
    init(_ buffer: UnsafeBufferPointer<Candidate>) {
        base = buffer.baseAddress
        count = buffer.count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    subscript(position: Int) -> Candidate {
        precondition(position >= 0 && position < count, "candidate \(position) of \(count) asked for")
        return base.unsafelyUnwrapped[position]
    }
}

extension Candidates: Equatable {
    /// Views are equal when they show the same candidates in the same order.
    static func == (lhs: Candidates, rhs: Candidates) -> Bool {
        lhs.elementsEqual(rhs)
    }
}

extension Array where Element == Candidate {
    /// Lends the array to `body` as ``Candidates``.
    func withCandidates<Result>(_ body: (Candidates) throws -> Result) rethrows -> Result {
        try withUnsafeBufferPointer { try body(Candidates($0)) }
    }
}
