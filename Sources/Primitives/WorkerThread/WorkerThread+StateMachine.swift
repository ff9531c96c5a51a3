extension WorkerThread {
    /// A unit of work for the worker thread.
    typealias Work = @Sendable () -> Void

    /// The worker's life cycle and its pending work. A value type changed only under the
    /// worker's lock: each event returns what the caller must do once it has unlocked, so no
    /// work and no thread operation ever runs while the lock is held (spawning excepted,
    /// see ``startRequested()``).
    struct StateMachine {
        private enum Phase {
            /// Created; `start()` has not been called. Work is refused.
            case notStarted
            /// `start()` created the thread, which has not begun taking work yet. Work is
            /// queued; `start()` and `stop()` callers wait for the next phase.
            case starting(SeamThread)
            /// The thread takes work from the queue, or sleeps until there is some.
            case running(SeamThread)
            /// `stop()` was called: new work is refused, the thread runs what is queued and
            /// exits. `joinClaimed` tells whether a `stop()` caller is joining the thread.
            case stopping(SeamThread, joinClaimed: Bool)
            /// The last reference to the worker went away on its own thread, which detached
            /// itself: it runs what is queued and exits, and nobody joins it.
            case detached
            /// The thread was joined, or never started. Terminal.
            case stopped
        }

        private var phase = Phase.notStarted
        private var queue = WorkQueue()
        /// Whether the thread is blocked waiting for work and nobody has signalled it since.
        private var threadIsWaiting = false
        /// How many times the thread returned from waiting for work. Diagnostic.
        private(set) var wakeUps = 0

        /// The worker's thread, while it exists and can still be joined.
        var thread: SeamThread? {
            switch phase {
            case .starting(let thread), .running(let thread), .stopping(let thread, _): thread
            case .notStarted, .detached, .stopped: nil
            }
        }

        /// Whether ``submit(_:)`` would accept work.
        var acceptsWork: Bool {
            switch phase {
            case .starting, .running: true
            case .notStarted, .stopping, .detached, .stopped: false
            }
        }

        /// Throws the error ``submit(_:)`` would throw, if any.
        func checkAcceptsWork() throws(WorkerThreadError) {
            switch phase {
            case .starting, .running: return
            case .notStarted: throw .notStarted
            case .stopping, .detached, .stopped: throw .stopped
            }
        }

        // MARK: Starting

        enum StartAction {
            /// Spawn the thread and report with ``threadSpawned(_:)`` or ``spawnFailed()``
            /// before unlocking.
            case spawn
            /// Another caller is starting the thread: wait for a phase change, then ask again.
            case waitForPhaseChange
            /// The thread is running already; nothing to do.
            case alreadyStarted
        }

        /// `start()` was called. Spawning happens under the lock so that the thread, whose
        /// first step takes the lock, always finds its handle recorded.
        mutating func startRequested() throws(WorkerThreadError) -> StartAction {
            switch phase {
            case .notStarted: return .spawn
            case .starting: return .waitForPhaseChange
            case .running: return .alreadyStarted
            case .stopping, .detached, .stopped: throw .stopped
            }
        }

        /// The thread for a `.spawn` action was created.
        mutating func threadSpawned(_ thread: SeamThread) {
            guard case .notStarted = phase else {
                preconditionFailure("WorkerThread spawned a thread in phase \(phase)")
            }
            phase = .starting(thread)
        }

        /// Creating the thread for a `.spawn` action failed; the worker stays unstarted.
        mutating func spawnFailed() {
            guard case .notStarted = phase else {
                preconditionFailure("WorkerThread failed to spawn in phase \(phase)")
            }
        }

        /// Whether a `start()` caller waiting for the thread may return.
        var isPastStarting: Bool {
            if case .starting = phase { return false }
            return true
        }

        /// The thread begins taking work. The caller wakes the `start()` and `stop()` callers
        /// waiting for a phase change.
        mutating func threadStarted() {
            guard case .starting(let thread) = phase else {
                preconditionFailure("WorkerThread started in phase \(phase)")
            }
            phase = .running(thread)
        }

        // MARK: Work

        /// Queues `work`. Returns whether the caller must signal the sleeping thread.
        mutating func submit(_ work: @escaping Work) throws(WorkerThreadError) -> Bool {
            try checkAcceptsWork()
            queue.append(work)
            return takeWakeUp()
        }

        enum NextWork {
            /// Run this work, outside the lock.
            case run(Work)
            /// Nothing queued: wait for a signal, then call ``threadWokeUp()`` and ask again.
            case wait
            /// Stopping and drained: the thread exits.
            case exit
        }

        /// The thread asks what to do next.
        mutating func nextWork() -> NextWork {
            if let work = queue.popFirst() { return .run(work) }
            switch phase {
            case .running:
                threadIsWaiting = true
                return .wait
            case .stopping, .detached:
                return .exit
            case .notStarted, .starting, .stopped:
                preconditionFailure("WorkerThread asked for work in phase \(phase)")
            }
        }

        /// The thread returned from waiting, signalled or spuriously.
        mutating func threadWokeUp() {
            threadIsWaiting = false
            wakeUps += 1
        }

        /// Whether the sleeping thread needs a signal; the caller sends it.
        private mutating func takeWakeUp() -> Bool {
            defer { threadIsWaiting = false }
            return threadIsWaiting
        }

        // MARK: Stopping

        enum StopAction {
            /// Nothing to wait for: the worker is stopped, or the caller is the worker's own
            /// thread, which cannot wait for itself.
            case none
            /// Signal the thread if `wake`, join it outside the lock, then call ``joined()``.
            case join(SeamThread, wake: Bool)
            /// Another caller is starting or joining the thread: wait for a phase change,
            /// then ask again.
            case waitForPhaseChange
        }

        /// `stop()` was called, on the worker's own thread when `fromWorker`.
        mutating func stopRequested(fromWorker: Bool) -> StopAction {
            switch phase {
            case .notStarted:
                phase = .stopped
                return .none
            case .starting:
                return .waitForPhaseChange
            case .running(let thread):
                phase = .stopping(thread, joinClaimed: !fromWorker)
                return fromWorker ? .none : .join(thread, wake: takeWakeUp())
            case .stopping(let thread, joinClaimed: false):
                guard !fromWorker else { return .none }
                phase = .stopping(thread, joinClaimed: true)
                return .join(thread, wake: false)
            case .stopping(_, joinClaimed: true):
                return fromWorker ? .none : .waitForPhaseChange
            case .detached:
                preconditionFailure("WorkerThread.stop() reached a worker that was deinitialized")
            case .stopped:
                return .none
            }
        }

        /// Whether a `stop()` caller waiting for another one may ask again.
        var isJoinPending: Bool {
            switch phase {
            case .starting, .stopping(_, joinClaimed: true): true
            case .notStarted, .running, .stopping(_, joinClaimed: false), .detached, .stopped: false
            }
        }

        /// The thread of a `.join` action was joined. The caller wakes the `stop()` callers
        /// waiting for a phase change.
        mutating func joined() {
            guard case .stopping(_, joinClaimed: true) = phase else {
                preconditionFailure("WorkerThread joined in phase \(phase)")
            }
            phase = .stopped
        }

        /// The last reference to the worker went away on its own thread. Returns the thread,
        /// which the caller detaches: nobody is left to join it.
        mutating func detachFromWorker() -> SeamThread {
            switch phase {
            case .running(let thread), .stopping(let thread, joinClaimed: false):
                phase = .detached
                return thread
            case .notStarted, .starting, .stopping(_, joinClaimed: true), .detached, .stopped:
                preconditionFailure("WorkerThread was deinitialized on its own thread in phase \(phase)")
            }
        }
    }
}

extension WorkerThread.StateMachine {
    /// A first-in first-out queue of work with amortized O(1) operations: items are appended
    /// to `incoming` and taken from the end of `outgoing`, which holds them reversed.
    struct WorkQueue {
        private var incoming: [WorkerThread.Work] = []
        private var outgoing: [WorkerThread.Work] = []

        mutating func append(_ work: @escaping WorkerThread.Work) {
            incoming.append(work)
        }

        mutating func popFirst() -> WorkerThread.Work? {
            if outgoing.isEmpty {
                guard !incoming.isEmpty else { return nil }
                outgoing = incoming.reversed()
                incoming.removeAll(keepingCapacity: true)
            }
            return outgoing.popLast()
        }
    }
}
