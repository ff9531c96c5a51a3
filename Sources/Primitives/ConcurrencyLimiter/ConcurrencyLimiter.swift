/// Lets at most a fixed number of async bodies run at once; the others wait their turn, in
/// arrival order.
///
/// ```swift
/// let downloads = ConcurrencyLimiter(concurrency: 4)
/// let image = try await downloads.run { try await network.image(at: url) }
/// ```
///
/// **Where bodies run.** ``run(isolation:_:)`` runs its body on the calling task, in the
/// caller's isolation: the limiter creates no task and hops to no actor or executor, so the
/// body's result comes straight back and task-locals, priority and executor preference are
/// the caller's.
///
/// **Admission.** A task admitted holds one of ``concurrency`` slots until its body returns
/// or throws, and gives it back exactly once. A task that finds every slot taken waits; a
/// slot given back goes to the task that has waited longest (FIFO), so a waiting task is
/// never overtaken by a later one.
///
/// **Cancellation.** A task that is cancelled before it is admitted, whether on entry or
/// while waiting, leaves the queue, never runs its body, never takes a slot and throws
/// `CancellationError`. A slot granted to a waiting task is its own from that moment, even if
/// its task is cancelled before it resumes: it then runs its body normally (cancellation is
/// cooperative from there) and gives the slot back once. Whichever of the grant and the
/// cancellation happens first decides.
///
/// **Lifetime.** Every task inside ``run(isolation:_:)``, waiting or running, keeps the
/// limiter alive: a call holds its receiver for its whole duration. So a limiter is
/// deinitialized only when no task waits on it and no body runs; nothing is ever admitted
/// without a slot because the limiter went away.
///
/// **Limits.** A body that calls ``run(isolation:_:)`` on its own limiter needs a second
/// slot: once every slot is held by such bodies they wait forever, as with a non-recursive
/// lock. Waiting tasks are admitted in arrival order whatever their priority, and the limiter
/// does not escalate the priority of the tasks holding slots.
///
/// **Cost.** Admission with a slot free is one lock, a counter increment and one unlock, with
/// no allocation and no suspension. Only a task that must wait suspends, and its wait costs
/// one table entry and a continuation. Shared state is touched only through the runtime
/// seam (``SeamMutex``, ``Seam/resume(_:with:file:line:)``), so a harness can schedule it.
public final class ConcurrencyLimiter: @unchecked Sendable {
    /// The most bodies that run at once.
    public let concurrency: Int

    private let mutex = SeamMutex()
    /// Guarded by `mutex`, which already excludes other accesses: the run-time exclusivity
    /// checks would only add to every admission.
    @exclusivity(unchecked) private var state: StateMachine

    /// Creates a limiter that lets at most `concurrency` bodies run at once.
    ///
    /// - Precondition: `concurrency >= 1`; anything less is a programmer error and traps.
    public init(concurrency: Int) {
        precondition(concurrency >= 1, "ConcurrencyLimiter(concurrency:) needs at least 1 slot, got \(concurrency)")
        self.concurrency = concurrency
        state = StateMachine(limit: concurrency)
    }

    /// How many bodies hold a slot right now. A snapshot for monitoring and tests: it may be
    /// stale as soon as it is returned.
    public var inFlightCount: Int { mutex.withLock { state.inFlight } }

    /// How many tasks wait for a slot right now. A snapshot for monitoring and tests: it may
    /// be stale as soon as it is returned. A task counts from the moment it is queued, which
    /// fixes its place in the FIFO order, until it is granted a slot or cancelled.
    public var waitingCount: Int { mutex.withLock { state.waitingCount } }

    /// Waits for a slot, runs `body` on the calling task in the caller's isolation while
    /// holding it, gives the slot back and returns what `body` returned.
    ///
    /// Throws `CancellationError` without running `body` if the task is cancelled before it
    /// is admitted; otherwise rethrows whatever `body` throws (the slot is given back either
    /// way). Once `body` has started, cancellation is up to `body`.
    ///
    /// - Parameters:
    ///   - isolation: The caller's isolation, which `body` runs in. Leave the default.
    ///   - body: The work to limit.
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        if Task.isCancelled { throw CancellationError() }
        if case .suspend(let id) = mutex.withLock({ state.enter() }) {
            try await waitForSlot(as: id, isolation: isolation)
        }
        defer { exit() }
        return try await body()
    }

    /// Suspends the queued task `id` until it is granted a slot (returns holding it) or
    /// cancelled first (throws `CancellationError` holding none).
    private func waitForSlot(as id: TaskWaitQueue.WaiterID, isolation: isolated (any Actor)?) async throws {
        try await TaskWaitQueue.suspend(
            isolation: isolation,
            register: { continuation in mutex.withLock { state.suspended(id, continuation) } },
            cancel: { self.mutex.withLock { self.state.cancelled(id) } }
        )
    }

    /// Gives back the caller's slot, waking the next waiter if there is one.
    private func exit() {
        mutex.withLock { state.exit() }?.perform()
    }
}
