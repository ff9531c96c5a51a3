import CShim

/// Every state of an ``IOThread`` and every transition between them: a value type whose
/// events run under the thread's lock and return what the caller does next. It performs no
/// operation itself, so a harness can check it on its own.
///
/// A phase only moves forward: unstarted → launched → (running →) exiting → exited. A kill
/// and the reaping of the OS thread are recorded beside the phase.
package struct IOThreadLifecycle: Sendable {
    /// A handler registered with ``IOThread/onExit(_:)``.
    package typealias Handler = @Sendable (ExitKind) -> Void

    /// Where the thread is in its life.
    package enum Phase: Sendable, CustomStringConvertible {
        /// No thread has been launched: `start()` was not called, or every call failed.
        case unstarted
        /// The OS thread exists and has not entered the body.
        case launched(SeamThread)
        /// The thread entered the body, which has not returned.
        case running(SeamThread)
        /// The body returned or the thread was killed; the thread is running its handlers.
        case exiting(SeamThread, ExitKind)
        /// The thread ran every handler registered before this point and is ending or gone.
        case exited(SeamThread, ExitKind)

        package var description: String {
            switch self {
            case .unstarted: "unstarted"
            case .launched: "launched"
            case .running: "running"
            case .exiting(_, let kind): "exiting (\(kind))"
            case .exited(_, let kind): "exited (\(kind))"
            }
        }
    }

    /// Who reaps the OS thread.
    package enum Reaping: Sendable, Hashable {
        /// The system, when the thread exits: it was created detached.
        case detached
        /// A `join()` that has not been called yet.
        case awaitingJoin
        /// A `join()` that is waiting in `pthread_join`.
        case joining
        /// A `join()` reaped it.
        case joined
    }

    /// What the thread does on entry.
    package enum EntryAction: Sendable, Hashable {
        /// Run the body.
        case runBody
        /// Skip it: a kill came first.
        case skipBody
    }

    /// Handlers for the exiting thread to run, in order, each told `kind`.
    package struct ExitBatch: Sendable {
        package let kind: ExitKind
        package let handlers: [Handler]
    }

    /// What `onExit` does with a handler.
    package enum RegistrationAction: Sendable, Hashable {
        /// The exiting thread will run it.
        case queued
        /// The thread has exited: run it now, on the calling thread.
        case runNow(ExitKind)
    }

    /// What `kill()` does.
    package enum KillAction: Sendable {
        /// Nothing: there is no thread to kill, a kill was already requested, or the body has
        /// already returned.
        case ignore
        /// Nothing more: the thread will skip its body when it enters.
        case preventEntry
        /// Request cancellation of the thread, before releasing the lock: it cannot exit
        /// while the lock is held, so its handle is valid.
        case cancel(SeamThread)
    }

    /// What `join()` does.
    package enum JoinAction: Sendable {
        /// Wait for the thread with `pthread_join` outside the lock, then report
        /// ``joinFinished()`` (or ``joinInterrupted()`` if the waiter was cancelled).
        case join(SeamThread)
        /// Return this result without waiting.
        case report(IOThreadJoinResult)
    }

    /// Where the thread is in its life.
    package private(set) var phase: Phase = .unstarted
    /// Who reaps the OS thread.
    package private(set) var reaping: Reaping
    /// Whether a kill was requested while it could still stop the body.
    package private(set) var killRequested = false
    /// Whether the thread entered the body.
    package private(set) var bodyEntered = false
    /// When the thread was launched.
    package private(set) var launchedAt: SeamInstant?
    /// Handlers registered and not yet handed to the exiting thread, in registration order.
    private var pendingHandlers: [Handler] = []

    /// The state of a thread not yet started, created joinable or detached.
    package init(joinable: Bool) {
        reaping = joinable ? .awaitingJoin : .detached
    }

    // MARK: Starting

    /// Whether `start()` may launch a thread: none has been launched.
    package var canLaunch: Bool {
        if case .unstarted = phase { return true }
        return false
    }

    /// `start()` launched `thread` at `instant`.
    package mutating func launched(_ thread: SeamThread, at instant: SeamInstant) {
        guard case .unstarted = phase else {
            preconditionFailure("IOThread launched a second OS thread while \(phase)")
        }
        phase = .launched(thread)
        launchedAt = instant
    }

    // MARK: The thread itself

    /// The thread is about to enter its body.
    package mutating func enter() -> EntryAction {
        guard case .launched(let thread) = phase else {
            preconditionFailure("IOThread entered its body while \(phase)")
        }
        if killRequested { return .skipBody }
        phase = .running(thread)
        bodyEntered = true
        return .runBody
    }

    /// The body returned.
    package mutating func bodyReturned() {
        guard case .running(let thread) = phase else {
            preconditionFailure("IOThread body returned while \(phase)")
        }
        phase = .exiting(thread, .finished)
    }

    /// The thread is exiting (its cleanup runs): returns the handlers to run next, or `nil`
    /// once every handler registered so far has been handed out, and the thread has exited.
    /// A thread that did not record the body's return was killed.
    package mutating func nextExitBatch() -> ExitBatch? {
        let thread: SeamThread
        let kind: ExitKind
        switch phase {
        case .launched(let launched):
            precondition(killRequested, "IOThread exited without entering its body although no kill was requested")
            (thread, kind) = (launched, .killed)
        case .running(let running):
            (thread, kind) = (running, .killed)
        case .exiting(let exiting, let exitKind):
            (thread, kind) = (exiting, exitKind)
        case .unstarted, .exited:
            preconditionFailure("IOThread ran its exit handlers while \(phase)")
        }
        guard !pendingHandlers.isEmpty else {
            phase = .exited(thread, kind)
            return nil
        }
        phase = .exiting(thread, kind)
        let handlers = pendingHandlers
        pendingHandlers = []
        return ExitBatch(kind: kind, handlers: handlers)
    }

    // MARK: Other threads

    /// A handler is registered.
    package mutating func register(_ handler: @escaping Handler) -> RegistrationAction {
        if case .exited(_, let kind) = phase { return .runNow(kind) }
        pendingHandlers.append(handler)
        return .queued
    }

    /// A kill is requested.
    package mutating func kill() -> KillAction {
        guard !killRequested else { return .ignore }
        switch phase {
        case .unstarted, .exiting, .exited:
            return .ignore
        case .launched:
            killRequested = true
            return .preventEntry
        case .running(let thread):
            killRequested = true
            return .cancel(thread)
        }
    }

    /// `join()` is called on the thread `caller`. Once the thread is reaped its handle may
    /// be reused by a new thread, so it is compared with the caller's only before.
    package mutating func beginJoin(calledFrom caller: pthread_t) -> JoinAction {
        guard let thread else { return .report(reaping == .detached ? .notJoinable : .notStarted) }
        switch reaping {
        case .detached:
            return .report(.notJoinable)
        case .joined:
            return .report(.alreadyJoined)
        case .joining, .awaitingJoin:
            if pthread_equal(thread.handle, caller) != 0 { return .report(.calledFromOwnThread) }
            if reaping == .joining { return .report(.alreadyBeingJoined) }
            reaping = .joining
            return .join(thread)
        }
    }

    /// `pthread_join` returned: the thread is reaped. Returns how it ended.
    package mutating func joinFinished() -> ExitKind {
        guard reaping == .joining, case .exited(_, let kind) = phase else {
            preconditionFailure("IOThread join finished while \(phase) and \(reaping)")
        }
        reaping = .joined
        return kind
    }

    /// The thread waiting in `pthread_join` was cancelled there; the thread stays unreaped.
    package mutating func joinInterrupted() {
        precondition(reaping == .joining, "IOThread join interrupted while \(reaping)")
        reaping = .awaitingJoin
    }

    // MARK: Observation

    /// The OS thread, once launched.
    package var thread: SeamThread? {
        switch phase {
        case .unstarted: nil
        case .launched(let thread), .running(let thread), .exiting(let thread, _), .exited(let thread, _): thread
        }
    }

    /// A joinable thread that no `join()` reaped, which must be detached so that the system
    /// reaps it when the ``IOThread`` goes away.
    package var unreapedThread: SeamThread? {
        reaping == .awaitingJoin ? thread : nil
    }

    /// How the thread ended, once its exit handlers have started.
    package var exitKind: ExitKind? {
        switch phase {
        case .unstarted, .launched, .running: nil
        case .exiting(_, let kind), .exited(_, let kind): kind
        }
    }

    /// The public view of the state.
    package var state: IOThreadState {
        var state: IOThreadState = []
        switch phase {
        case .unstarted: return state
        case .launched, .running: break
        case .exiting(_, let kind):
            if kind == .finished { state.insert(.finished) }
        case .exited(_, let kind):
            if kind == .finished { state.insert(.finished) }
            state.insert(.exited)
        }
        state.insert(.started)
        if bodyEntered { state.insert(.entered) }
        if killRequested { state.insert(.cancelled) }
        return state
    }
}
