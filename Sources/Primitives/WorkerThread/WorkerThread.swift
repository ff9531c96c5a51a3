import CShim

/// A long-lived thread that runs submitted work one item at a time, in submission order, and
/// sleeps while it has none.
///
/// ```swift
/// let worker = WorkerThread()
/// try worker.start()                      // returns once the thread is waiting for work
/// try worker.submit { print("on the worker") }
/// let answer = try worker.sync { 6 * 7 }  // runs on the worker, waits for the result
/// worker.stop()                           // runs what is queued, then joins the thread
/// ```
///
/// Guarantees:
/// - An idle worker sleeps in a condition wait without a deadline: it does not poll, and a
///   spurious wake-up only re-checks for work and goes back to sleep.
/// - ``start()`` returns only once the thread exists and is waiting for work (or already
///   running the work queued meanwhile).
/// - Work runs on the worker's thread, one item at a time, in the order ``submit(_:)`` and
///   ``sync(_:)`` accepted it. Every accepted item runs exactly once, even when ``stop()`` is
///   called before it started: stopping drains the queue.
/// - ``stop()`` returns only after the thread has exited and been joined (except when called
///   from the worker itself, see there).
///
/// Not guaranteed: anything about the thread's scheduling priority or which CPU runs it;
/// work that blocks forever keeps the worker (and a `stop()` caller) blocked forever.
///
/// A worker is started at most once: after ``stop()`` it refuses work with
/// ``WorkerThreadError/stopped``; create a new worker instead. Deinitializing a worker that
/// was not stopped stops it, as ``stop()`` does (draining its queue and joining its thread,
/// which blocks the releasing thread meanwhile); when the last reference goes away on the
/// worker's own thread, the thread drains the queue, detaches itself and exits.
///
/// All shared state goes through the runtime seam (``SeamMutex``, ``SeamCondition``,
/// ``Seam/spawnThread(attributes:file:line:_:)``), so a harness can schedule it.
public final class WorkerThread: Sendable {
    let storage = Storage()

    /// Creates a worker whose thread does not exist yet: call ``start()``.
    public init() {}

    deinit {
        storage.stopForDeinit()
    }

    /// Creates the worker's thread and returns once it is waiting for work.
    ///
    /// Returns `true` when this call started the thread and `false` when it was already
    /// running (a concurrent first call is waited for, so `start()` never returns before the
    /// thread is ready).
    ///
    /// - Throws: ``WorkerThreadError/stopped`` once ``stop()`` was called (a worker is not
    ///   restarted), or ``WorkerThreadError/threadCreationFailed(_:)`` when the system
    ///   refused to create the thread; the worker then stays unstarted.
    @discardableResult
    public func start() throws(WorkerThreadError) -> Bool {
        try storage.start()
    }

    /// Queues `work` to run on the worker's thread after the work accepted before it.
    ///
    /// Returns without waiting for `work` to run. Once accepted, `work` runs exactly once,
    /// even if ``stop()`` is called first. It runs outside the worker's lock, so it may
    /// submit more work or call ``stop()``.
    ///
    /// - Throws: ``WorkerThreadError/notStarted`` before ``start()``, and
    ///   ``WorkerThreadError/stopped`` once ``stop()`` was called; `work` is then dropped
    ///   without running.
    public func submit(_ work: @escaping @Sendable () -> Void) throws(WorkerThreadError) {
        try storage.submit(work)
    }

    /// Stops the worker: refuses new work, lets the thread run the work already queued, and
    /// returns once the thread has exited and been joined.
    ///
    /// Idempotent: a second call, or a call on a worker that was never started (which then
    /// can no longer be started), returns at once; concurrent calls all return once the
    /// thread is joined.
    ///
    /// Called from the worker's own thread (from submitted work), `stop()` cannot wait for
    /// the thread it runs on: it refuses new work and returns at once; the thread finishes
    /// the current item and the queued ones, then exits. A later `stop()` from another
    /// thread, or the worker's deinitialization, joins it.
    @available(*, noasync, message: "stop() blocks the calling thread until the worker has drained its queue")
    public func stop() {
        storage.stop(fromWorker: isCurrent)
    }

    /// Whether the calling thread is this worker's thread (compared with `pthread_equal`).
    /// `false` before ``start()`` and once the thread was joined.
    @available(*, noasync, message: "a task may change threads between suspension points")
    public var isCurrent: Bool {
        storage.isCurrentThread
    }

    /// How many times the worker's thread returned from waiting for work, signalled or
    /// spuriously. An idle worker leaves it unchanged: it is how the tests show that the
    /// thread sleeps rather than polls.
    package var wakeUpCount: Int {
        storage.withState { $0.wakeUps }
    }

    /// Whether ``submit(_:)`` would accept work now.
    package var acceptsWork: Bool {
        storage.withState { $0.acceptsWork }
    }
}

extension WorkerThread {
    /// What the worker and its thread share: the state machine, the lock protecting it and
    /// the conditions its waiters sleep on. The thread holds it, not the ``WorkerThread``,
    /// so that dropping the last reference to the worker stops it.
    final class Storage: @unchecked Sendable {
        /// Protects `state` and the outcomes of ``WorkerThread/SyncCall``s.
        let mutex = SeamMutex()
        /// Signalled when work is queued for a sleeping thread, or stopping begins.
        private let workAvailable = SeamCondition()
        /// Broadcast when the phase leaves `starting` or a join completes.
        private let phaseChanged = SeamCondition()
        /// Guarded by `mutex`.
        private var state = StateMachine()

        /// Runs `body` on the state machine, under the lock.
        func withState<Result, Failure: Error>(
            _ body: (inout StateMachine) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            try mutex.withLock { () throws(Failure) -> Result in try body(&state) }
        }

        var isCurrentThread: Bool {
            guard let thread = withState({ $0.thread }) else { return false }
            return thread.isCurrent
        }

        func start() throws(WorkerThreadError) -> Bool {
            try mutex.withLock { () throws(WorkerThreadError) -> Bool in
                while true {
                    switch try state.startRequested() {
                    case .spawn:
                        switch Seam.spawnThread({ self.runThread() }) {
                        case .success(let thread):
                            state.threadSpawned(thread)
                        case .failure(let error):
                            state.spawnFailed()
                            throw .threadCreationFailed(error)
                        }
                        phaseChanged.wait(on: mutex, until: { state.isPastStarting })
                        return true
                    case .waitForPhaseChange:
                        phaseChanged.wait(on: mutex, until: { state.isPastStarting })
                    case .alreadyStarted:
                        return false
                    }
                }
            }
        }

        func submit(_ work: @escaping Work) throws(WorkerThreadError) {
            let wake = try withState { state throws(WorkerThreadError) in try state.submit(work) }
            if wake { workAvailable.signal() }
        }

        func stop(fromWorker: Bool) {
            while true {
                let action = withState { $0.stopRequested(fromWorker: fromWorker) }
                switch action {
                case .none:
                    return
                case .join(let thread, let wake):
                    if wake { workAvailable.signal() }
                    do {
                        try thread.join()
                    } catch {
                        preconditionFailure("WorkerThread could not join its thread: \(error)")
                    }
                    withState { $0.joined() }
                    phaseChanged.broadcast()
                    return
                case .waitForPhaseChange:
                    mutex.withLock { phaseChanged.wait(on: mutex, until: { !state.isJoinPending }) }
                }
            }
        }

        /// The ``WorkerThread`` went away without being stopped, or after being stopped from
        /// its own thread.
        func stopForDeinit() {
            guard isCurrentThread else { return stop(fromWorker: false) }
            let thread = withState { $0.detachFromWorker() }
            do {
                try thread.detach()
            } catch {
                preconditionFailure("WorkerThread: \(error)")
            }
        }

        /// The worker thread's body: take work under the lock, run it outside, sleep while
        /// there is none, exit once stopping and drained. Becoming ready and first looking
        /// for work share one critical section, so `start()` (which needs the lock to return)
        /// returns only once the thread is asleep or running work.
        private func runThread() {
            var next = mutex.withLock {
                state.threadStarted()
                phaseChanged.broadcast()
                return takeNextWork()
            }
            while true {
                do {
                    guard let work = next.take() else { return }
                    work()
                }
                // The work and what it captured were released above, before sleeping: an
                // idle worker keeps nothing alive, and dropping the last reference to the
                // worker inside work deinitializes it here, outside the lock.
                next = mutex.withLock { takeNextWork() }
            }
        }

        /// With `mutex` held: the next work, or `nil` when the thread must exit; sleeps while
        /// there is neither. Every return from the wait re-checks the queue and the phase, so
        /// a spurious wake-up goes back to sleep.
        private func takeNextWork() -> Work? {
            while true {
                switch state.nextWork() {
                case .run(let work):
                    return work
                case .exit:
                    return nil
                case .wait:
                    workAvailable.wait(on: mutex)
                    state.threadWokeUp()
                }
            }
        }
    }
}
