/// Coordinates access to a resource shared by threads: synchronous reads that run
/// concurrently with each other, and writes that run alone, in submission order, either
/// asynchronously (``enqueueWrite(_:)``) or synchronously (``write(_:)``).
///
/// Guarantees:
/// - Any number of read blocks may run at once; a write block runs with no read block and
///   no other write block running.
/// - Requests are served in submission order: a write runs after every read and write
///   submitted before it, and a read submitted after a write (from any thread, once
///   `enqueueWrite` or `write` has returned) observes that write. So a stream of readers
///   cannot starve a writer, nor a stream of writers a reader that arrived before them.
/// - Every enqueued write runs, exactly once.
/// - Re-entry does not deadlock: a read nested in a read or in a write of the same
///   coordinator, on the same thread, runs at once, even while writes are queued; so does
///   a ``write(_:)`` nested in a write. They run as part of the enclosing block, so they
///   do not observe writes enqueued meanwhile (those wait for the enclosing block).
///   ``enqueueWrite(_:)`` may be called from anywhere, inside blocks too; its write runs
///   after the enclosing block.
///
/// There is no writer thread. A write runs on the thread that makes it runnable: the
/// caller of `enqueueWrite` when nothing else is running (so an uncontended enqueued
/// write costs two mutex acquisitions plus the write, and one atomic operation when reads
/// that took no lock ran since the last write, and is done when `enqueueWrite` returns),
/// or else the last reader or writer to leave, which runs the queued writes up
/// to the next waiting reader or synchronous writer before its own call returns. A call
/// may therefore take as long as the writes other threads queued behind it. Write blocks
/// must not wait for other threads' reads.
///
/// Not guaranteed: calling ``write(_:)`` inside a read block of the same coordinator on the
/// same thread cannot be satisfied (the write waits for the read, the read for the write)
/// and traps. A read block that waits for another thread's read of the same coordinator
/// deadlocks once a write is queued between them, as with any lock that does not let
/// readers overtake a waiting writer. A thread cancelled inside a block leaves the
/// coordinator held.
///
/// A read that need not wait (no write running or queued) takes no lock: it costs two
/// atomic read-modify-write operations on a ``SeamAtomic`` and a thread-local lookup,
/// about what a `pthread_rwlock` read costs. (After writes, the first such read also takes
/// the mutex, to let the reads after it in the same way.) Everything else goes through a
/// ``SeamMutex`` and a ``SeamCondition`` around a state machine. Blocks run outside the
/// mutex. Which coordinators a thread is inside is kept in a ``ThreadLocalValue``.
public final class ReadWriteCoordinator: @unchecked Sendable {
    /// How reads that need not wait get in; the state machine opens and closes it.
    @usableFromInline
    let gate: ReadGate
    private let mutex = SeamMutex()
    /// Broadcast when a waiting group of readers or a waiting synchronous writer is admitted.
    private let admitted = SeamCondition()
    /// Guarded by `mutex`, which already gives exclusive access: run-time exclusivity
    /// checks would only add to the cost of every request.
    @exclusivity(unchecked) private var state: StateMachine

    /// Creates a coordinator with nothing running and nothing queued.
    public init() {
        let gate = ReadGate()
        self.gate = gate
        state = StateMachine(gate: gate)
    }

    /// Runs `body` as a read and returns what it returns, waiting first for every write
    /// submitted before it. Other reads may run at the same time; no write does.
    ///
    /// Inside a read or write block of this coordinator on the same thread, `body` runs at
    /// once. Rethrows what `body` throws, after leaving.
    @inlinable
    public func read<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard gate.tryEnter() else { return try readAfterFindingGateClosed(body) }
        return try readThroughGate(body)
    }

    /// Runs `body` as the read of a caller that came in through the gate, then leaves
    /// through it.
    @inlinable
    func readThroughGate<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer {
            if gate.leave() { readFinished() }
        }
        return try run(as: .reading, body)
    }

    /// Runs `body` as a read that found the gate closed: at once when nested in a block of
    /// this coordinator, else once the state machine admits it (or lets it in through the
    /// gate, which it opens).
    @usableFromInline
    func readAfterFindingGateClosed<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if roleOfCurrentThread() != nil {
            return try body()
        }
        if mutex.withLock({ admitReader() }) {
            return try readThroughGate(body)
        }
        defer { readFinished() }
        return try run(as: .reading, body)
    }

    /// Runs `body` as a write, alone, once every read and write submitted before it has
    /// run, and returns what it returns.
    ///
    /// Inside a write block of this coordinator on the same thread, `body` runs at once, as
    /// part of that block. Rethrows what `body` throws, after leaving.
    ///
    /// Called inside a read block of this coordinator on the same thread, it can never run
    /// (the write would wait for the read, the read for the write) and traps, in every
    /// build, with a message naming the mistake.
    public func write<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        switch roleOfCurrentThread() {
        case .writing?:
            return try body()
        case .reading?:
            fatalError(
                """
                ReadWriteCoordinator.write(_:) called inside a read block of the same coordinator on the same \
                thread: the write would wait for the read to end and the read for the write. Call enqueueWrite(_:) \
                instead, or write after the read returns
                """
            )
        case nil:
            break
        }
        mutex.withLock {
            if case .queued(let ticket) = state.writeRequested() {
                waitForAdmission(of: ticket)
            }
        }
        defer { perform(mutex.withLock { state.writeFinished() }) }
        return try run(as: .writing, body)
    }

    /// Submits `body` to run as a write, alone, after every read and write submitted before
    /// it, and returns without waiting for it unless nothing else is running (then the
    /// calling thread runs it before returning).
    ///
    /// `body` may run on any thread that uses this coordinator. Reads submitted after this
    /// call returns observe it.
    public func enqueueWrite(_ body: @escaping @Sendable () -> Void) {
        perform(mutex.withLock { state.writeEnqueued(body) })
    }

    /// Admits, holding `mutex`, a reader that found the gate closed, waiting as long as it
    /// must. Returns whether it came in through the gate.
    private func admitReader() -> Bool {
        switch state.readRequested() {
        case .admitted:
            return false
        case .admittedThroughGate:
            return true
        case .queued(let ticket):
            waitForAdmission(of: ticket)
            return false
        }
    }

    /// Reports a read admitted by the state machine finished, or the last of the readers
    /// that were inside the gate when it closed, and carries out what follows.
    @usableFromInline
    func readFinished() {
        perform(mutex.withLock { state.readFinished() })
    }

    /// Waits, holding `mutex`, until the request with `ticket` has been admitted.
    private func waitForAdmission(of ticket: StateMachine.Ticket) {
        admitted.wait(on: mutex, until: { state.isAdmitted(ticket) })
    }

    /// Carries out `action` after unlocking: wakes admitted waiters, or runs enqueued
    /// writes one after another for as long as the state machine hands them out.
    private func perform(_ action: StateMachine.Action) {
        var action = action
        while true {
            switch action {
            case .none:
                return
            case .wakeWaiters:
                admitted.broadcast()
                return
            case .runWrite(let body):
                run(as: .writing, body)
                action = mutex.withLock { state.writeFinished() }
            }
        }
    }
}
