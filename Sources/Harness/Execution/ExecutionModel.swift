import Primitives

/// The scheduling state of one controlled execution and every rule that changes it: what
/// each thread waits to do, who holds each mutex, who waits on each condition, the virtual
/// clock, and which threads a decision may run.
///
/// A value without threads: each event (a thread arrives at a scheduling point, a chosen
/// thread performs its operation, a thread exits, the execution fails) is a `mutating`
/// function that returns what the driver, ``Execution``, must do (run a thread, record a
/// step, let a thread block, wind the execution down), so the rules can be checked one event
/// at a time without threads. The model never chooses: at a decision it builds the
/// candidates, the driver's `choose` (the strategy, or the replayed schedule) picks one, and
/// the model applies it. It never records either: each step it takes comes back as a
/// ``Step``, in the order taken, for the driver's trace.
///
/// It does not check that an event comes from the thread it names, nor that the thread may
/// send it: the driver calls ``perform(_:)`` only for the thread a decision ran, and only
/// that thread sends events.
///
/// The questions its events ask at every step (``isEnabled(_:for:)`` and the like) are
/// `@inline(__always)`: the model is a large value, and a call to one of its non-mutating
/// methods from a mutating one copies all of it (several hundred bytes, several times a
/// decision). Those the compiler would not inline (``urgentCandidate()``,
/// ``blockerOfUrgentThread()``) are asked only while a thread is in a non-preemptible region.
struct ExecutionModel {
    /// What a thread arriving at a scheduling point does.
    enum Arrival: Equatable {
        /// It performs its operation at once, without a decision: a wait on the harness's own
        /// synchronization (see ``noteInternalObjects(_:)``), which may block its thread, while
        /// no thread in a non-preemptible region can run. (The harness's other operations do
        /// not arrive: ``performQuietly(_:_:at:)``.)
        case performsAtOnce
        /// It waits for a decision (``decide(running:earlyTimeoutWithin:)``).
        case awaitsDecision
    }

    /// What a decision came to.
    enum Decision: Equatable {
        /// The thread runs next: it performs its pending operation (``perform(_:)``).
        case run(Int)
        /// The model took a step of its own: the clock advanced, or a condition waiter woke
        /// spuriously. The driver records it (``takeOwnStep()``), then asks for the decision
        /// again. The step is kept in the model rather than carried here, so that a decision
        /// is a few words, returned in registers: carrying it made every decision copy a
        /// step's size in and out.
        case tookStep
        /// Every thread has finished.
        case allFinished
        /// No thread can run and no deadline is left, though some thread has not finished.
        /// Unless work from outside the harness is on its way (the driver may wait for it
        /// and decide again), ``failStuck(tasksAreSuspended:)`` ends the execution.
        case stuck
        /// The execution failed (``failure`` says why) and winds down.
        case failed
        /// More than one candidate can go on: the driver picks one of `candidates` (valid
        /// until the model changes) and hands it back to ``take(_:running:)``, which returns
        /// the decision. `running` is the thread that reached the scheduling point, when it
        /// is among them.
        case choose(among: Candidates, running: Int?)
    }

    /// What the driver's choice among the candidates decided (``take(_:running:)``).
    enum Chosen: Equatable {
        /// The thread runs next, as ``Decision/run(_:)``.
        case run(Int)
        /// The model took a step of its own, as ``Decision/tookStep``: a spurious wake-up, or
        /// an early timeout.
        case tookStep
    }

    /// What a thread does after performing its operation.
    enum PerformOutcome: Equatable {
        /// It goes on to its next scheduling point.
        case continues
        /// Its condition wait timed out at once, its deadline already reached: a wait that is
        /// due is a try and never parks. It released its mutex and, still the running thread,
        /// waits for a decision to re-acquire it, so that another thread may first satisfy
        /// what it waits for, or not.
        case timedOut
        /// It waits on a condition: another thread must be decided on.
        case blocks
        /// The execution failed (the operation released a mutex its thread does not hold,
        /// spawned a thread too many, or a failure was noted before): the thread exits and
        /// the execution winds down.
        case fails
    }

    /// What an operation hands back to the thread that performed it: the value its seam
    /// call returns.
    enum Reply: Equatable {
        /// Nothing: the call returns no value.
        case none
        /// A `tryLock`: whether it took the mutex.
        case tryLock(tookMutex: Bool)
        /// A condition wait, once its thread holds the mutex again: how the wait ended.
        case waitEnded(SeamWaitResult)
        /// A `spawn`: the thread it created.
        case spawned(Int)

        /// The thread a `spawn` created.
        var createdThread: Int? {
            if case .spawned(let thread) = self { return thread }
            return nil
        }
    }

    /// An operation performed.
    struct Performed: Equatable {
        /// The step to record.
        let step: Step
        /// What the thread does next.
        let outcome: PerformOutcome
        /// What the operation hands back to its thread.
        let reply: Reply
    }

    /// What a thread does after an operation performed while the execution winds down.
    enum WindingDownOutcome: Equatable {
        /// It goes on, with `reply` from its operation.
        case continues(Reply)
        /// It joins a thread that has not finished: it waits until ``nextToWindDown()``
        /// names it, then goes on after ``returnFromJoin(_:)``.
        case waitsToJoin
        /// It spawned a thread too many: it exits, as a spawn over the limit does while
        /// scheduling.
        case failsToSpawn
    }

    /// A step the model took, for the driver's trace. Steps come out in the order taken, each
    /// before its effects.
    struct Step: Equatable {
        // The flags are stored beside the kind, in the padding after the thread: at the end,
        // they made a step, and what carries one, too large to be copied without `memcpy`.

        /// The thread that took it; `nil` for the scheduler's own (the clock advancing).
        let thread: Int?
        /// What it did.
        let kind: OperationKind
        /// Whether `thread` is one of the task executor's threads.
        let isOnExecutorThread: Bool
        /// Whether the execution had failed before the step: a replay checks only the steps
        /// before a failure.
        let followsFailure: Bool
        /// The object or thread it acted on, objects named in order of first use.
        let target: TraceTarget?
        /// For a lane's choice among queued jobs, the index chosen.
        let choice: Int?
        /// Where in the source the thread took it.
        let location: SeamLocation?
        /// The job `thread` runs, for a lane: with ``isOnExecutorThread``, what the driver
        /// needs to say which task the step belongs to.
        let job: JobIdentity?
    }

    private enum Phase {
        /// One thread runs at a time, as decisions choose.
        case scheduling
        /// The execution failed, or its scenario abandoned the threads that wait for good
        /// (``abandonWaitingThreads()``): the threads left run their cleanups and exit one at
        /// a time, lowest-numbered first, their seam operations performed at once.
        case windingDown
    }

    private let limits: ExecutionLimits
    /// Every thread the execution created, by number; T0 first. Its states change only
    /// through ``setState(_:of:)``, which keeps ``ready``, ``waiting``, ``wakeable`` and
    /// ``timed``.
    private(set) var threads: [ThreadRecord] = []
    /// The threads at a scheduling point (``ThreadRecord/State/ready(_:_:)``).
    private var ready = ThreadSet()
    /// The threads waiting on a condition
    /// (``ThreadRecord/State/waiting(condition:mutex:deadline:location:)``).
    private var waiting = ThreadSet()
    /// The threads of ``waiting`` that may wake spuriously: those waiting on a condition of the
    /// code's own, when the execution wakes waiters spuriously (``ExecutionLimits``). A wait on
    /// the harness's own synchronization never does; in an async scenario the lanes and the
    /// scenario's thread wait there, nearly always.
    private var wakeable = ThreadSet()
    /// The threads in a non-preemptible region (``ThreadRecord/nonPreemptibleDepth`` above 0).
    private(set) var nonPreemptible = ThreadSet()
    /// The threads with a deadline: in a timed condition wait, or about to sleep.
    private var timed = ThreadSet()
    /// The threads another thread joined: a second join fails the execution.
    private var joined = ThreadSet()
    private var mutexes = ObjectMap<MutexModel>()
    /// How many condition waits the execution began (``ThreadRecord/waitOrder``). The
    /// waiters of a condition are the threads in ``waiting`` on it: a handful, found by
    /// their states, where a list for each condition was made anew every execution.
    private var waitsBegun: UInt32 = 0
    /// The harness's own mutex and conditions (the task executor's): see ``isInternal(_:)``.
    /// A handful, asked about at every step of an executor thread: an array, which compares
    /// them without hashing.
    private var internalObjects: [ObjectIdentifier] = []
    /// What the task executor's threads and its users wait for, as the executor notes it
    /// (``noteExecutor(queuedJobs:isQuiet:isClosed:)``): the jobs queued for its
    /// interchangeable lanes, whether it is quiet (nothing left to run or to wake), and
    /// whether it is closed. A lane about to start or to take its next job waits for a job,
    /// or for the executor to be closed and quiet; a thread waiting for tasks to end
    /// (``PendingOperation/awaitTasks``), for it to be quiet. They wait here, in the model,
    /// not on conditions of the executor's: a wait, a wake and the mutex taken and given back
    /// around them were four seam operations and two steps each time.
    private var queuedJobs = 0
    private var executorIsQuiet = false
    private var executorIsClosed = false
    /// A lane with nothing left but to exit, running to its end for the thread that joins it
    /// (``retire(_:joinedBy:)``), without decisions or steps.
    private(set) var retiring: (lane: Int, joiner: Int)?
    /// Virtual time in nanoseconds: it moves only when the model advances it.
    private(set) var clock = ExecutionModel.startOfTime
    /// What the threads spawned from now on are; the driver sets it while it starts a thread
    /// of the task executor.
    var roleOfSpawnedThreads = ThreadRecord.Role.scenario
    /// Why the execution failed, if it did.
    private(set) var failure: ExecutionFailure? {
        didSet { hasFailed = failure != nil }
    }
    /// Whether ``failure`` is set, kept as a flag: testing the optional itself copied the
    /// failure at every decision and step.
    private(set) var hasFailed = false
    private var phase = Phase.scheduling
    /// How many steps the model took: the length of the driver's trace.
    private(set) var stepCount = 0
    /// The decisions taken: which thread or job ran, and who could have gone on.
    private(set) var decisions: [ScheduleDecision] = []
    /// How many decisions ran another thread while the running one could go on.
    private(set) var preemptions = 0
    /// The order in which threads and tasks took each shared object.
    private(set) var fingerprint = InterleavingFingerprint()
    /// The names of the objects the steps touched; see ``name(_:_:)``.
    var objectNames = ObjectNames()
    /// The step the model took of its own at the last decision, until the driver takes it
    /// (``Decision/tookStep``).
    private var ownStep: Step?
    /// The candidates of ``decide(running:earlyTimeoutWithin:)``, and the spurious
    /// wake-ups among them, in storage kept between decisions. A copy of the model shares
    /// the candidates' storage, which every decision fills anew.
    private var candidates: CandidateList
    private var spurious: [Candidate] = []

    /// The storage a model's state grew, emptied with its capacity kept: what the model of an
    /// execution that ended leaves for the next execution's on the same runner
    /// (``leave(in:)``), so that an execution no larger than those before it allocates none
    /// of it. Only ``leave(in:)`` gives one storage, so what it holds is always empty.
    struct Leftovers {
        fileprivate var threads: [ThreadRecord] = []
        fileprivate var mutexes = ObjectMap<MutexModel>()
        fileprivate var internalObjects: [ObjectIdentifier] = []
        fileprivate var objectNames = ObjectNames()
        fileprivate var fingerprint = InterleavingFingerprint()
        fileprivate var candidates: CandidateList?
        fileprivate var spurious: [Candidate] = []
    }

    /// An execution whose root thread, T0, is about to start, its state kept in the storage
    /// it takes from `leftovers`.
    init(limits: ExecutionLimits, decisionStorage: inout [ScheduleDecision], reusing leftovers: inout Leftovers) {
        self.limits = limits
        candidates = leftovers.candidates.take() ?? CandidateList(capacity: Self.expectedThreads)
        adopt(&leftovers, decisionStorage: &decisionStorage)
    }

    /// Takes the storage of `leftovers` and `decisionStorage` for the model's state. A method,
    /// not the initializer's body: swapped there, the compiler copied the whole model once an
    /// execution (13 retains and 12 releases), and a decision storage passed by value was no
    /// longer unique, so reserving room in it allocated.
    private mutating func adopt(_ leftovers: inout Leftovers, decisionStorage: inout [ScheduleDecision]) {
        precondition(decisionStorage.isEmpty, "an execution begins with no decisions")
        swap(&decisions, &decisionStorage)
        // Swapped in, not copied: the arrays must be unique for appending to reuse them.
        swap(&threads, &leftovers.threads)
        swap(&mutexes, &leftovers.mutexes)
        swap(&internalObjects, &leftovers.internalObjects)
        swap(&objectNames, &leftovers.objectNames)
        swap(&fingerprint, &leftovers.fingerprint)
        swap(&spurious, &leftovers.spurious)
        begin()
    }

    /// The model of the next execution on the same runner, in this one's storage: every field
    /// as ``init(limits:decisionStorage:reusing:)`` leaves it, the lists emptied with their
    /// capacity kept, the decisions recorded in `decisionStorage` (which must be empty, and
    /// holds the ended execution's after). In place: leaving the storage
    /// (``leave(in:)``) and making a new model in it moved each list out and back and
    /// destroyed the old model, a tenth of an execution with nothing in it. A test checks,
    /// field by field, that a model restarted after an execution is a new one.
    mutating func restart(decisionStorage: inout [ScheduleDecision]) {
        precondition(decisionStorage.isEmpty, "an execution begins with no decisions")
        threads.removeAll(keepingCapacity: true)
        (ready, waiting, wakeable, nonPreemptible, timed, joined) = (
            ThreadSet(), ThreadSet(), ThreadSet(), ThreadSet(), ThreadSet(), ThreadSet()
        )
        mutexes.removeAll()
        waitsBegun = 0
        (queuedJobs, executorIsQuiet, executorIsClosed, retiring) = (0, false, false, nil)
        internalObjects.removeAll(keepingCapacity: true)
        clock = Self.startOfTime
        roleOfSpawnedThreads = .scenario
        failure = nil
        phase = .scheduling
        stepCount = 0
        swap(&decisions, &decisionStorage)
        preemptions = 0
        fingerprint.removeAll()
        objectNames.removeAll()
        ownStep = nil
        candidates.removeAll()
        spurious.removeAll(keepingCapacity: true)
        begin()
    }

    /// T0 about to start, with room for a small scenario: one allocation each, where growing
    /// by appending reallocated each array several times an execution; none when reused.
    private mutating func begin() {
        threads.reserveCapacity(min(limits.maxThreads, Self.expectedThreads))
        threads.append(ThreadRecord(state: .ready(.start, nil)))
        ready.insert(0)
        decisions.reserveCapacity(Self.expectedDecisions)
    }

    /// Where virtual time begins, in nanoseconds.
    private static var startOfTime: UInt64 { 1_000_000_000 }

    /// Empties the model's storage into `leftovers`, keeping its capacity, for the next
    /// execution's model (``init(limits:decisionStorage:reusing:)``): call once the execution
    /// has ended and its record was made, which leaves this model spent.
    mutating func leave(in leftovers: inout Leftovers) {
        threads.leaveStorage(in: &leftovers.threads)
        internalObjects.leaveStorage(in: &leftovers.internalObjects)
        candidates.removeAll()
        leftovers.candidates = candidates
        spurious.leaveStorage(in: &leftovers.spurious)
        swap(&leftovers.mutexes, &mutexes)
        swap(&leftovers.objectNames, &objectNames)
        swap(&leftovers.fingerprint, &fingerprint)
        leftovers.mutexes.removeAll()
        leftovers.objectNames.removeAll()
        leftovers.fingerprint.removeAll()
    }

    /// The threads and the decisions an execution is given room for at its start.
    private static var expectedThreads: Int { 8 }
    private static var expectedDecisions: Int { 64 }

    /// Whether the execution failed and its threads are exiting: their seam operations go to
    /// ``performWhileWindingDown(_:_:)``, their exits record nothing.
    var isWindingDown: Bool { phase == .windingDown }

    /// Treats `objects` as the harness's own synchronization (the task executor's mutex and
    /// conditions): an operation on them takes no decision unless it blocks and no step
    /// unless it waits, and a wait on them never wakes spuriously.
    mutating func noteInternalObjects(_ objects: [ObjectIdentifier]) {
        // Appended, not assigned: the list's storage is the one an earlier execution left.
        for object in objects where !internalObjects.contains(object) { internalObjects.append(object) }
    }

    /// Whether `object` is the harness's own synchronization (``noteInternalObjects(_:)``).
    /// Always inlined: called from a step inlined into the driver, it copied the whole model
    /// out of the driver at every step.
    @inline(__always)
    func isInternal(_ object: ObjectIdentifier) -> Bool {
        !internalObjects.isEmpty && internalObjects.contains(object)
    }

    // MARK: Events of a thread

    /// `thread` arrives at a scheduling point to perform `operation`, with cancellation
    /// enabled or not.
    mutating func arrive(_ thread: Int, at operation: PendingOperation, location: SeamLocation?, cancellable: Bool)
        -> Arrival
    {
        setState(.ready(operation, location), of: thread)
        // Read first: a coroutine's is always enabled, and a write checked the array unique.
        if threads[thread].cancellable != cancellable { threads[thread].cancellable = cancellable }
        // Only a wait can still be the harness's own here: ``performQuietly(_:_:at:)`` took
        // the rest. A wait is always enabled.
        if case .wait = operation, isInternal(operation), nonPreemptible.isEmpty || urgentCandidate() == nil {
            return .performsAtOnce
        }
        return .awaitsDecision
    }

    /// `thread`, the running thread, performs `operation` at `location` at once, without a
    /// decision and without a step, when it may: a lock of a free mutex, an unlock, a signal
    /// or a broadcast on the harness's own synchronization (see ``noteInternalObjects(_:)``),
    /// or the spawn of a thread of the task executor (``roleOfSpawnedThreads``), while no
    /// thread in a non-preemptible region can run. What it changes shows in the steps that
    /// follow, so a replay that reaches them reached it too. Returns what the thread does next
    /// (it goes on, unless the operation failed the execution: an unlock of a mutex it does
    /// not hold, a spawn past the thread limit) and what the operation hands back; `nil` when
    /// it may not, and arrives at a scheduling point instead
    /// (``arrive(_:at:location:cancellable:)``).
    @inline(__always)
    mutating func performQuietly(_ thread: Int, _ operation: PendingOperation, at location: SeamLocation?) -> (
        outcome: PerformOutcome, reply: Reply
    )? {
        switch operation {
        case .spawn where roleOfSpawnedThreads != .scenario: break
        case .wait: return nil
        default: guard isInternal(operation), isEnabled(operation, for: thread) else { return nil }
        }
        guard nonPreemptible.isEmpty || urgentCandidate() == nil else { return nil }
        return apply(operation, of: thread, at: location)
    }

    /// `thread`, which a decision ran (or which may perform at once), performs its pending
    /// operation and runs on.
    mutating func perform(_ thread: Int) -> Performed {
        guard case .ready(let operation, let location) = threads[thread].state else {
            preconditionFailure("T\(thread) was chosen but has no pending operation")
        }
        setState(.running, of: thread)
        return perform(operation, of: thread, at: location)
    }

    /// `thread`, running, performs `operation` at `location`: a chosen thread's pending
    /// operation (``perform(_:)``), or the one it was chosen for at its arrival
    /// (``decide(arriving:at:cancellable:)``).
    mutating func perform(_ operation: PendingOperation, of thread: Int, at location: SeamLocation?) -> Performed {
        let step = makeStep(thread, operation.kind, target: target(of: operation), location: location)
        noteAccess(operation, by: thread)
        let (outcome, reply) = apply(operation, of: thread, at: location)
        return Performed(step: step, outcome: outcome, reply: reply)
    }

    /// Notes in the fingerprint that `thread` takes the shared object `operation` acts on, unless
    /// the object is the harness's own (``performQuietly(_:_:at:)`` performs only those, and
    /// notes nothing).
    @inline(__always)
    private mutating func noteAccess(_ operation: PendingOperation, by thread: Int) {
        guard case .shared(let object)? = operation.access(by: thread)?.object, !isInternal(object) else { return }
        fingerprint.noteAccess(to: object, by: threads[thread].job?.task.map { limits.maxThreads + $0 } ?? thread)
    }

    /// Notes in the fingerprint that a lane took `job`: the order the tasks' jobs run in is
    /// part of the interleaving, as the order threads take a mutex in is. Tasks that meet
    /// only on actors touch no seam object: without it, every execution of such a scenario
    /// had the same fingerprint, one distinct interleaving however the jobs were ordered. A
    /// job of no task (a default actor draining its queue) is left out: it runs the tasks
    /// queued on the actor, in the order their own jobs queued them, and where it falls among
    /// the tasks' jobs is the runtime's bookkeeping (one task calling an actor alone ran in
    /// two orders).
    private mutating func noteTaken(_ job: JobIdentity) {
        if let task = job.task { fingerprint.noteJob(of: task) }
    }

    /// Applies `operation`, which `thread`, now running, performs at `location`, to the state.
    private mutating func apply(_ operation: PendingOperation, of thread: Int, at location: SeamLocation?) -> (
        PerformOutcome, Reply
    ) {
        var reply = Reply.none
        switch operation {
        case .lock(let mutex, _):
            take(mutex, by: thread)
        case .reacquire(let mutex):
            take(mutex, by: thread)
            reply = .waitEnded(threads[thread].waitResult)
        case .tryLock(let mutex, let recursive):
            let tookMutex = isEnabled(.lock(mutex, recursive: recursive), for: thread)
            if tookMutex { take(mutex, by: thread) }
            reply = .tryLock(tookMutex: tookMutex)
        case .unlock(let mutex):
            release(mutex, by: thread, location: location)
        case .wait where threads[thread].cancelRequested && threads[thread].cancellable:
            // pthread_cond_wait is a cancellation point: a pending request acts at once,
            // with the mutex still held, when the caller tests for it.
            threads[thread].waitResult = .signalled
            reply = .waitEnded(.signalled)
        case .wait(let condition, let mutex, let deadline):
            release(mutex, by: thread, location: location)
            if !hasFailed {
                mutexes[mutex, default: MutexModel()] = MutexModel()
                if let deadline, deadline <= clock {
                    setState(.ready(.reacquire(mutex: mutex), location), of: thread)
                    threads[thread].waitResult = .timedOut
                    return (.timedOut, .none)
                }
                threads[thread].waitOrder = waitsBegun
                waitsBegun += 1
                setState(
                    .waiting(condition: condition, mutex: mutex, deadline: deadline, location: location), of: thread)
                return (.blocks, .none)
            }
        case .signal(let condition):
            if let first = firstWaiter(on: condition) { wake(first, result: .signalled) }
        case .broadcast(let condition):
            while let first = firstWaiter(on: condition) { wake(first, result: .signalled) }
        case .spawn:
            if let created = spawnRecord() { reply = .spawned(created) }
        case .join(let target):
            // The first join reaps the thread; a second is a misuse, as POSIX has it (a pooled
            // OS thread's would fail to wait, a coroutine's would return at once).
            if joined.contains(target) {
                failure = .joinedTwice(thread: thread, target: target, location: location)
            } else {
                joined.insert(target)
            }
        case .cancel(let target):
            // A condition wait is a cancellation point: like pthread_cond_wait, a cancellable
            // waiter wakes, re-acquires its mutex, and then acts on the request.
            threads[target].cancelRequested = true
            if case .waiting = threads[target].state, threads[target].cancellable {
                wake(target, result: .signalled)
            }
        case .start, .atomic, .cancellationPoint, .yield, .sleep, .resume, .handoff, .enqueueJob, .takeJob, .quiesce,
            .awaitTasks:
            break
        }
        if hasFailed {
            phase = .windingDown
            return (.fails, reply)
        }
        return (.continues, reply)
    }

    /// When `thread`'s operation unblocked a thread in a non-preemptible region and `thread`
    /// is in none, `thread` steps aside (it waits to hand off) and the result is the thread
    /// to run at once: it holds a runtime lock that `thread` may need before its next
    /// scheduling point.
    @inline(__always)
    mutating func stepAside(_ thread: Int, at location: SeamLocation?) -> Int? {
        guard !nonPreemptible.isEmpty, threads[thread].nonPreemptibleDepth == 0, let urgent = urgentCandidate() else {
            return nil
        }
        setState(.ready(.handoff, location), of: thread)
        return urgent
    }

    /// `thread` exits. Returns the step to record, then a decision picks who runs next;
    /// `nil` while the execution winds down.
    mutating func exit(_ thread: Int) -> Step? {
        if phase == .windingDown {
            setState(.finished, of: thread)
            return nil
        }
        let step = makeStep(thread, .exit, target: nil, location: nil)
        setState(.finished, of: thread)
        return step
    }

    /// Whether `thread` is a lane with nothing left but to exit: an interchangeable lane about
    /// to start or to take its next job (between jobs), of a task executor that is closed and
    /// quiet, while nothing else but its joiner could run (no failure, no thread in a
    /// non-preemptible region). It takes no job and no seam operation before it exits.
    func isRetiringLane(_ thread: Int) -> Bool {
        guard executorIsClosed, executorIsQuiet, !hasFailed, nonPreemptible.isEmpty,
            threads[thread].isInterchangeableLane, case .ready(let operation, _) = threads[thread].state
        else { return false }
        switch operation {
        case .start, .takeJob: return true
        default: return false
        }
    }

    /// `thread` joins `lane`, a retiring lane (``isRetiringLane(_:)``), which runs to its end
    /// next: `thread` waits to join it, and the lane goes on from its scheduling point
    /// (``resumeRetiringLane()``) and exits (``exitRetiringLane(_:)``) without a decision or a
    /// step. Nothing can happen meanwhile that a schedule would show: the executor the lane
    /// served has closed with nothing left to run.
    mutating func retire(_ lane: Int, joinedBy thread: Int) {
        setState(.ready(.join(lane), nil), of: thread)
        retiring = (lane, thread)
    }

    /// The retiring lane, chosen to run by its joiner, goes on from its scheduling point: it
    /// was about to start or to take a job, which changes nothing.
    mutating func resumeRetiringLane() {
        guard let retiring else { preconditionFailure("no lane is retiring") }
        setState(.running, of: retiring.lane)
    }

    /// `thread` exits; when it is the retiring lane, without a step, and its joiner has joined
    /// it and runs next: returns the joiner. `nil` when `thread` is not retiring.
    mutating func exitRetiringLane(_ thread: Int) -> Int? {
        guard let retiring, retiring.lane == thread else { return nil }
        self.retiring = nil
        setState(.finished, of: thread)
        joined.insert(thread)
        setState(.running, of: retiring.joiner)
        return retiring.joiner
    }

    /// The OS would not start `thread`, which a spawn created: it counts as finished.
    mutating func threadFailedToStart(_ thread: Int) {
        setState(.finished, of: thread)
    }

    /// Whether a thread in a non-preemptible region can run: then the running thread's
    /// operations on the harness's own synchronization are scheduling points, where the
    /// urgent thread runs first (``performQuietly(_:_:at:)``).
    var hasUrgentThread: Bool {
        !nonPreemptible.isEmpty && urgentCandidate() != nil
    }

    /// `thread` enters a region that must not be preempted: code under a runtime lock.
    mutating func enterNonPreemptibleRegion(_ thread: Int) {
        threads[thread].nonPreemptibleDepth += 1
        nonPreemptible.insert(thread)
    }

    /// `thread` leaves a region entered with ``enterNonPreemptibleRegion(_:)``.
    mutating func exitNonPreemptibleRegion(_ thread: Int) {
        threads[thread].nonPreemptibleDepth -= 1
        if threads[thread].nonPreemptibleDepth == 0 { nonPreemptible.remove(thread) }
    }

    /// Lane `thread` runs `job` without a choice (the only one queued), or, with `nil`, has
    /// finished its job.
    mutating func lane(_ thread: Int, runs job: JobIdentity?) {
        threads[thread].job = job
        if let job { noteTaken(job) }
    }

    /// The task executor has `queuedJobs` jobs queued for its interchangeable lanes, is quiet
    /// or not, closed or not: a lane about to start or to take a job goes on once a job is
    /// queued or the executor is closed and quiet, a thread waiting for tasks once it is
    /// quiet. Not a step; the executor notes each change before its next scheduling point.
    mutating func noteExecutor(queuedJobs: Int, isQuiet: Bool, isClosed: Bool) {
        self.queuedJobs = queuedJobs
        executorIsQuiet = isQuiet
        executorIsClosed = isClosed
    }

    /// Lane `thread` runs `jobs[index]`, chosen among the queued `jobs`. Returns the choice's
    /// step to record.
    mutating func lane(_ thread: Int, chose index: Int, among jobs: UnsafeBufferPointer<JobIdentity>) -> Step {
        decisions.append(.job(index))
        threads[thread].job = jobs[index]
        noteTaken(jobs[index])
        return makeStep(
            thread, .chooseJob, target: .queuedJob(position: index + 1, count: jobs.count), choice: index, location: nil
        )
    }

    // MARK: Failing

    /// The execution failed outside the model (a task threw, a job escaped the harness):
    /// unless it failed before, `failure` is why. The next decision or operation performed
    /// fails.
    mutating func noteFailure(_ failure: ExecutionFailure) {
        if !hasFailed { self.failure = failure }
    }

    /// The execution stalled: a thread never came back to the seam, so `stall` is why it
    /// ended, whatever failure it noted before and can no longer act on.
    mutating func noteStall(_ stall: ExecutionFailure) {
        failure = stall
    }

    /// A thread failed (``Execution/fail(_:)``): notes `failure` as ``noteFailure(_:)`` does
    /// and winds the execution down.
    mutating func windDown(after failure: ExecutionFailure) {
        noteFailure(failure)
        phase = .windingDown
    }

    /// Fails a ``Decision/stuck`` execution: as a deadlock of tasks when only `blockedTasks`
    /// and the harness's own threads wait, otherwise as a deadlock of threads, or, once T0
    /// has finished, as threads left running.
    mutating func failStuck(blockedTasks: [BlockedTask]) {
        failure = stuckFailure(blockedTasks: blockedTasks)
        phase = .windingDown
    }

    /// Ends the execution without a failure while threads still wait for good: the scenario
    /// has judged their waits (a generated scenario's blocked calls). They exit as after a
    /// failure, and so do the caller's later seam operations: performed at once, unrecorded.
    mutating func abandonWaitingThreads() {
        phase = .windingDown
    }

    // MARK: Winding down a failed execution

    /// `thread`, running its cleanup after a failure, performs `operation` at once, without
    /// blocking: a mutex is taken even when held, a wait times out, and only a join of a
    /// thread that has not finished waits.
    mutating func performWhileWindingDown(_ thread: Int, _ operation: PendingOperation) -> WindingDownOutcome {
        switch operation {
        case .lock(let mutex, _), .reacquire(let mutex):
            mutexes[mutex, default: MutexModel()].owner = thread
        case .tryLock:
            return .continues(.tryLock(tookMutex: true))
        case .unlock(let mutex):
            if mutexes.contains(mutex) { mutexes[mutex, default: MutexModel()].owner = nil }
        case .wait:
            threads[thread].waitResult = .timedOut
            return .continues(.waitEnded(.timedOut))
        case .spawn:
            return spawnRecord().map { .continues(.spawned($0)) } ?? .failsToSpawn
        case .join(let target) where !threads[target].isFinished:
            setState(.ready(operation, nil), of: thread)
            return .waitsToJoin
        default:
            break
        }
        return .continues(.none)
    }

    /// `thread`, which waited to join while winding down, runs again.
    mutating func returnFromJoin(_ thread: Int) {
        setState(.running, of: thread)
    }

    /// The thread that runs next while the execution winds down: the lowest-numbered one that
    /// still has to exit and is not waiting to join a thread that has not. `nil` when none
    /// is left: the execution has ended.
    func nextToWindDown() -> Int? {
        threads.indices.first { index in
            switch threads[index].state {
            case .finished: false
            case .ready(.join(let target), _): threads[target].isFinished
            case .running: false
            default: true
            }
        }
    }

    // MARK: Deciding

    /// Picks the thread that runs next. `running` is the thread that reached the scheduling
    /// point, `nil` when it blocked or ended.
    ///
    /// A thread in a non-preemptible region runs whenever it can, and while one is blocked,
    /// only the thread it waits for runs. Otherwise the candidates are the threads whose
    /// operation can go on (a yielding thread only when no other can), then the spurious
    /// wake-ups of condition waiters (when the limits allow them; never on the harness's own
    /// conditions), then, when the earliest deadline to come lies at most `earlyTimeoutWithin`
    /// nanoseconds ahead of the clock, an early timeout (the clock jumps to that deadline, so
    /// timers fire in deadline order and a runnable thread loses at most that much virtual
    /// time); the driver picks one of them (``Decision/choose(among:running:)``). When nothing
    /// can run the clock advances to the earliest deadline. Builds no array: the candidates
    /// are written into storage kept from one decision to the next (``CandidateList``), which
    /// the driver reads until it takes its choice.
    mutating func decide(running: Int?, earlyTimeoutWithin: UInt64?) -> Decision {
        if hasFailed {
            phase = .windingDown
            return .failed
        }
        // Filled in place from decision to decision, so that a decision allocates nothing.
        candidates.removeAll()
        spurious.empty()
        for index in ready.union(wakeable) {
            switch threads[index].state {
            case .ready(let operation, _):
                offer(index, operation)
            case .waiting(let condition, _, _, _):
                spurious.append(
                    Candidate(.spuriousWake(index), access: Access(object: .shared(condition), isRead: false)))
            case .running, .finished:
                break
            }
        }
        // A thread in a non-preemptible region (running code under a runtime lock) runs
        // whenever it can; one that blocked there lets only the thread it waits for run
        // (below, within the step bound) until it can.
        if !nonPreemptible.isEmpty, let urgent = urgentCandidate() {
            return .run(urgent)
        }
        if candidates.isEmpty {
            if let step = advanceClock() {
                ownStep = step
                return .tookStep
            }
            if threads.allSatisfy(\.isFinished) { return .allFinished }
            if let quiescing = threads.indices.first(where: { threads[$0].state.isQuiescing }) {
                return .run(quiescing)
            }
            return .stuck
        }
        if stepCount >= limits.maxSteps {
            failure = .stepBoundExceeded(limits.maxSteps)
            phase = .windingDown
            return .failed
        }
        // While it is blocked there, only the thread it waits for runs.
        if !nonPreemptible.isEmpty, let blocker = blockerOfUrgentThread() {
            return .run(blocker)
        }
        // A yield is fair: when another thread can run, one does, so spin loops that
        // yield end under every strategy.
        if let running, case .ready(.yield, _) = threads[running].state, candidates.count > 1 {
            candidates.removeAll { $0.choice == .thread(running) }
        }
        let runningCandidate = running.flatMap { candidates.offersStep(of: $0) ? $0 : nil }
        if !spurious.isEmpty { candidates.append(contentsOf: spurious) }
        // A timeout may fire while other work could still run: the strategy decides (or
        // the token, which may have recorded one, while a replay follows it).
        if let bound = earlyTimeoutWithin, !timed.isEmpty, let deadline = earliestDeadline(),
            deadline <= clock || deadline - clock <= bound
        {
            candidates.append(Candidate(.advanceClock))
        }
        return .choose(among: candidates.view, running: runningCandidate)
    }

    /// Adds `thread`, about to perform `operation`, to the decision's candidates when it can.
    /// Mutating, though it changes only the candidates' storage: a method that reads the model
    /// copied the whole model to be called from a loop of one that changes it.
    @inline(__always)
    private mutating func offer(_ thread: Int, _ operation: PendingOperation) {
        guard isEnabled(operation, for: thread) else { return }
        let isSymmetricCopy = hasIdleTwin(thread, among: candidates)
        candidates.append(
            Candidate(.thread(thread), access: operation.access(by: thread), isSymmetricCopy: isSymmetricCopy))
    }

    // MARK: A decision at the running thread's arrival

    /// The decision at `thread`'s arrival at `operation`, taken before the thread leaves its
    /// running state, when it needs nothing but the threads' pending operations: no waiting
    /// thread may wake spuriously, none sleeps or is in a non-preemptible region, and
    /// `thread` arrives at an operation that is not the harness's own and neither yields nor
    /// waits. A lane's steps take it too: the lanes wait for jobs here, in the model, and the
    /// executor's other threads on its own conditions, which never wake spuriously.
    /// The candidates are those ``arrive(_:at:location:cancellable:)`` and then
    /// ``decide(running:earlyTimeoutWithin:)`` offer, in the same order; the decision is
    /// taken with ``take(_:running:arriving:at:location:)``. `nil`, with nothing changed,
    /// when the decision needs the general path, or has no candidate.
    ///
    /// A strategy mostly keeps the running thread: then it performs its operation without
    /// entering and leaving the ready state, two state changes of every such step.
    mutating func decide(arriving thread: Int, at operation: PendingOperation, cancellable: Bool) -> Decision? {
        guard !hasFailed, stepCount < limits.maxSteps, wakeable.isEmpty, timed.isEmpty, nonPreemptible.isEmpty,
            !isInternal(operation)
        else { return nil }
        switch operation {
        case .yield, .sleep, .wait, .quiesce, .handoff: return nil
        default: break
        }
        candidates.removeAll()
        var offered = ready
        offered.insert(thread)
        for index in offered {
            if index == thread {
                offer(index, operation)
            } else if case .ready(let pending, _) = threads[index].state {
                offer(index, pending)
            }
        }
        if candidates.isEmpty { return nil }
        if threads[thread].cancellable != cancellable { threads[thread].cancellable = cancellable }
        let running = candidates.offersStep(of: thread) ? thread : nil
        return .choose(among: candidates.view, running: running)
    }

    /// The decision of `choice`, picked among the candidates of
    /// ``decide(arriving:at:cancellable:)`` for `thread`'s arrival at `operation` at
    /// `location`: the thread chosen. Unless it is `thread`, `thread` is now ready and waits
    /// to be run, as after ``arrive(_:at:location:cancellable:)``.
    mutating func take(
        _ choice: Choice, running runningCandidate: Int?, arriving thread: Int, at operation: PendingOperation,
        location: SeamLocation?
    ) -> Int {
        guard case .run(let chosen) = take(choice, running: runningCandidate) else {
            preconditionFailure("a decision at an arrival chose \(choice), which is no thread's step")
        }
        if chosen != thread { setState(.ready(operation, location), of: thread) }
        return chosen
    }

    /// The decision of `choice`, picked among the `candidates` of
    /// ``Decision/choose(among:running:)``.
    mutating func take(_ choice: Choice, running runningCandidate: Int?) -> Chosen {
        switch choice {
        case .thread(let thread):
            decisions.append(.thread(running: runningCandidate, chosen: thread))
            if let runningCandidate, thread != runningCandidate { preemptions += 1 }
            return .run(thread)
        case .spuriousWake(let thread):
            guard let (condition, location) = wake(thread, result: .signalled) else {
                preconditionFailure("a spurious wake-up of T\(thread), which does not wait, was chosen")
            }
            ownStep = makeStep(thread, .spuriousWake, target: .object(name(condition, .condition)), location: location)
            return .tookStep
        case .advanceClock:
            guard let step = advanceClock() else {
                preconditionFailure("an early timeout was chosen with no deadline to come")
            }
            ownStep = step
            return .tookStep
        case .job:
            preconditionFailure("a strategy chose a job where threads run")
        }
    }

    /// The step the model took of its own at the decision that said ``Decision/tookStep``,
    /// handed over once.
    mutating func takeOwnStep() -> Step {
        guard let step = ownStep.take() else { preconditionFailure("no step of the model's own to take") }
        return step
    }

    /// Whether `operation` works on the harness's own synchronization. Such an operation takes
    /// no decision of the strategy unless it blocks, and no step unless it waits: the
    /// executor's bookkeeping is invisible to the scenario, and interleaving at it would only
    /// spend schedules (and PCT's change points, and the exhaustive search's bound) on
    /// schedules equivalent to others, and recording it only time and token length. Waits on
    /// the harness's conditions never wake spuriously, for the same reason: they are predicate
    /// loops.
    @inline(__always)
    private func isInternal(_ operation: PendingOperation) -> Bool {
        guard !internalObjects.isEmpty, case .shared(let object)? = operation.access(by: 0)?.object else {
            return false
        }
        return internalObjects.contains(object)
    }

    @inline(__always)
    private func isEnabled(_ operation: PendingOperation, for thread: Int) -> Bool {
        switch operation {
        case .lock(let mutex, let recursive):
            guard let owner = mutexes[mutex]?.owner else { return true }
            return recursive && owner == thread
        case .reacquire(let mutex):
            return mutexes[mutex]?.owner == nil
        case .join(let target):
            return threads[target].isFinished
        case .sleep(let deadline):
            return clock >= deadline
        case .start, .takeJob:
            return !threads[thread].isInterchangeableLane || queuedJobs > 0 || (executorIsClosed && executorIsQuiet)
        case .awaitTasks:
            return executorIsQuiet
        case .quiesce:
            return false
        default:
            return true
        }
    }

    /// The first thread in a non-preemptible region that can run.
    private func urgentCandidate() -> Int? {
        nonPreemptible.first { index in
            guard threads[index].nonPreemptibleDepth > 0, case .ready(let operation, _) = threads[index].state else {
                return false
            }
            return isEnabled(operation, for: index)
        }
    }

    /// When a thread in a non-preemptible region is blocked on a mutex or a join, the thread
    /// it waits for (followed through owners that are blocked in turn) if that one can run:
    /// the only thread that may run until the blocked one can. Any other thread might run
    /// into the runtime lock the blocked one holds, outside the seam. `nil` when no such
    /// thread is blocked, or when what it waits for cannot be run now (a condition wait, a
    /// yield, a cycle): then the strategy picks among all candidates.
    private func blockerOfUrgentThread() -> Int? {
        for index in nonPreemptible {
            var visited: Set<Int> = [index]
            var current = index
            while let next = blocker(of: current), visited.insert(next).inserted {
                guard case .ready(let operation, _) = threads[next].state else { break }
                if isEnabled(operation, for: next) {
                    if case .yield = operation { break }
                    return next
                }
                current = next
            }
        }
        return nil
    }

    /// The thread that `thread` waits for at its scheduling point: the owner of the mutex it
    /// cannot lock, or the thread it joins.
    private func blocker(of thread: Int) -> Int? {
        guard case .ready(let operation, _) = threads[thread].state, !isEnabled(operation, for: thread) else {
            return nil
        }
        switch operation {
        case .lock(let mutex, _), .reacquire(let mutex):
            return mutexes[mutex]?.owner
        case .join(let target):
            return target
        default:
            return nil
        }
    }

    /// Whether `thread` is an idle lane (one that runs no job) and one of `candidates` is
    /// another idle lane about to take the same operation.
    @inline(__always)
    private func hasIdleTwin(_ thread: Int, among candidates: CandidateList) -> Bool {
        guard let operation = idleLaneOperation(thread) else { return false }
        // A loop, not `contains(where:)`: a closure that reads the threads captures a copy of
        // the whole model.
        for candidate in candidates.view {
            if case .thread(let other) = candidate.choice, idleLaneOperation(other) == operation { return true }
        }
        return false
    }

    /// What `thread` is about to do, when it is an interchangeable lane that runs no job.
    @inline(__always)
    private func idleLaneOperation(_ thread: Int) -> PendingOperation? {
        guard threads[thread].isInterchangeableLane, threads[thread].job == nil,
            case .ready(let operation, _) = threads[thread].state
        else { return nil }
        return operation
    }

    // MARK: Time

    /// Moves virtual time to the earliest deadline and times out the waits that reach it.
    /// Returns the step to record; `nil` when no deadline is left.
    private mutating func advanceClock() -> Step? {
        guard let earliest = earliestDeadline() else { return nil }
        let advance = earliest > clock ? earliest - clock : 0
        clock = max(clock, earliest)
        let step = makeStep(nil, .advanceClock, target: .clockAdvance(nanoseconds: advance), location: nil)
        for index in timed {
            if case .waiting(_, _, let deadline?, _) = threads[index].state, deadline <= clock {
                wake(index, result: .timedOut)
            }
        }
        return step
    }

    /// The earliest deadline of a timed wait or a sleep still to come.
    @inline(__always)
    private func earliestDeadline() -> UInt64? {
        var earliest: UInt64?
        for index in timed {
            switch threads[index].state {
            case .waiting(_, _, let deadline?, _):
                earliest = min(earliest ?? deadline, deadline)
            case .ready(.sleep(let deadline), _) where deadline > clock:
                earliest = min(earliest ?? deadline, deadline)
            default:
                break
            }
        }
        return earliest
    }

    // MARK: Synchronization

    /// The thread that holds `mutex`, if one does.
    func owner(of mutex: ObjectIdentifier) -> Int? {
        mutexes[mutex]?.owner
    }

    /// Moves a condition waiter to re-acquiring its mutex. Returns the condition it waited on
    /// and where; `nil` when it was not waiting.
    @discardableResult
    private mutating func wake(_ thread: Int, result: SeamWaitResult) -> (
        condition: ObjectIdentifier, location: SeamLocation?
    )? {
        guard case .waiting(let condition, let mutex, _, let location) = threads[thread].state else { return nil }
        setState(.ready(.reacquire(mutex: mutex), location), of: thread)
        threads[thread].waitResult = result
        return (condition, location)
    }

    /// The thread that has waited on `condition` longest, if one waits on it.
    @inline(__always)
    private func firstWaiter(on condition: ObjectIdentifier) -> Int? {
        var first: Int?
        for index in waiting {
            guard case .waiting(condition, _, _, _) = threads[index].state else { continue }
            if first.map({ threads[index].waitOrder < threads[$0].waitOrder }) ?? true { first = index }
        }
        return first
    }

    private mutating func take(_ mutex: ObjectIdentifier, by thread: Int) {
        mutexes[mutex, default: MutexModel()].take(by: thread)
    }

    private mutating func release(_ mutex: ObjectIdentifier, by thread: Int, location: SeamLocation?) {
        guard mutexes.modify(mutex, { $0.release(by: thread) }) == true else {
            failure = .unheldUnlock(thread: thread, mutex: name(mutex, .mutex), location: location)
            return
        }
    }

    /// Creates the thread a spawn starts; `nil`, and a failure, when that is one thread too
    /// many.
    private mutating func spawnRecord() -> Int? {
        let index = threads.count
        guard index < limits.maxThreads else {
            failure = .tooManyThreads(limits.maxThreads)
            return nil
        }
        var record = ThreadRecord(state: .ready(.start, nil))
        record.role = roleOfSpawnedThreads
        threads.append(record)
        ready.insert(index)
        return index
    }

    // MARK: Thread states

    /// Puts `thread` in `state`, keeping the sets of ready, waiting and timed threads: it leaves
    /// the sets its state put it in, and joins those of the new one. Every decision changes
    /// two threads' states, so a change touches only the sets the two states name.
    private mutating func setState(_ state: ThreadRecord.State, of thread: Int) {
        forEachSet(of: threads[thread].state) { $0.remove(thread) }
        forEachSet(of: state) { $0.insert(thread) }
        threads[thread].state = state
    }

    /// Calls `body` with each set a thread in `state` belongs to.
    @inline(__always)
    private mutating func forEachSet(of state: ThreadRecord.State, _ body: (inout ThreadSet) -> Void) {
        switch state {
        case .ready(.sleep, _):
            body(&ready)
            body(&timed)
        case .ready:
            body(&ready)
        case .waiting(let condition, _, let deadline, _):
            body(&waiting)
            if limits.spuriousWakeups && !isInternal(condition) { body(&wakeable) }
            if deadline != nil { body(&timed) }
        case .running, .finished:
            break
        }
    }

    // MARK: Steps

    /// The step `thread` takes, counted.
    private mutating func makeStep(
        _ thread: Int?, _ kind: OperationKind, target: TraceTarget?, choice: Int? = nil, location: SeamLocation?
    ) -> Step {
        stepCount += 1
        return Step(
            thread: thread,
            kind: kind,
            isOnExecutorThread: thread.map { threads[$0].isExecutorThread } ?? false,
            followsFailure: hasFailed,
            target: target,
            choice: choice,
            location: location,
            job: thread.flatMap { threads[$0].job }
        )
    }
}
