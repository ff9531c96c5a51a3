import Primitives
import Synchronization

/// One iteration of a stress run: the threads and tasks its scenario started, the gate its
/// threads start behind, and the first failure recorded in it.
///
/// A ``Scenario`` in stress mode sends its spawns, tasks and joins here. Any thread of the
/// iteration may spawn, join or fail a check, so the state is guarded by a lock that is not
/// a seam operation.
final class StressIteration: @unchecked Sendable {
    /// The identity of the iteration's root thread, which runs the scenario's body.
    static let root = SeamThreadID(rawValue: 0)

    /// The iteration's number in its run.
    let index: Int
    /// Where its tasks run; `nil` for the global executor.
    private let taskPool: StressTaskPool?
    private let lock = SeamMutex()
    private let tasksEnded = SeamCondition()
    private var gate = StressGate()
    private var unjoined: [SeamThread] = []
    private var outstandingTasks = 0
    private var failure: StressFailure?
    private let abandoned = Atomic(false)
    /// The scenario's waits, once it asked for them to be counted (``countWaits()``).
    private var waits: StressWaits?
    private let countsWaits = Atomic(false)
    private let waitsChanged = SeamCondition()

    init(index: Int, taskPool: StressTaskPool?) {
        self.index = index
        self.taskPool = taskPool
    }

    /// The iteration the calling thread or task belongs to, if any: a thread spawned through
    /// the seam under its controller (the scenario's threads and those the primitives
    /// start), or a task the scenario started (and that task's children).
    @available(*, noasync, message: "a task may change threads between suspension points")
    static var current: StressIteration? {
        (Seam.currentController as? StressController)?.iteration ?? currentTask
    }

    /// The iteration of a task the scenario started.
    @TaskLocal static var currentTask: StressIteration?

    // MARK: Threads

    /// Starts a real thread that runs `body` once the gate opens; the gate of threads
    /// spawned before it opened, or a new one.
    func spawn(file: StaticString, line: UInt, _ body: @escaping @Sendable () throws -> Void) -> SeamThread {
        let gate = lock.withLockDirectly {
            if self.gate.isOpen { self.gate = StressGate() }
            return self.gate
        }
        let result = Seam.spawnThread(file: file, line: line) { [self] in
            gate.wait()
            do {
                try body()
            } catch {
                record(.threw(error: "\(error)"))
            }
        }
        switch result {
        case .success(let thread):
            lock.withLockDirectly {
                unjoined.append(thread)
                if let id = thread.controlledID { waits?.spawned(id) }
            }
            return thread
        case .failure(let error):
            preconditionFailure(
                "the stress run could not start a scenario thread (\(error)): has the process run out of threads?")
        }
    }

    /// Releases the threads waiting at the gate: the root thread is about to wait for
    /// something, or has spawned all it will before it joins.
    func openGate() {
        lock.withLockDirectly { gate }.open()
    }

    /// Joins `thread`, opening the gate first.
    func join(_ thread: SeamThread, file: StaticString, line: UInt) {
        openGate()
        lock.withLockDirectly { unjoined.removeAll { $0.handle == thread.handle } }
        do {
            try thread.join(file: file, line: line)
        } catch {
            preconditionFailure("joining a scenario thread failed: \(error)")
        }
    }

    /// Joins every spawned thread not joined yet, then waits for every task started so far.
    func joinAll(file: StaticString, line: UInt) {
        openGate()
        while let thread = lock.withLockDirectly({ unjoined.first }) {
            join(thread, file: file, line: line)
        }
        lock.withLockDirectly { tasksEnded.waitDirectly(on: lock, until: { outstandingTasks == 0 }) }
    }

    // MARK: Tasks

    /// Starts a task on the run's task executor, or the global one; an error it throws is
    /// recorded.
    func startTask(_ body: @escaping @Sendable () async throws -> Void) -> Task<Void, Never> {
        lock.withLockDirectly { outstandingTasks += 1 }
        let operation: @Sendable () async -> Void = { [self] in
            await Self.$currentTask.withValue(self) {
                do {
                    try await body()
                } catch {
                    record(.threw(error: "\(error)"))
                }
            }
            lock.withLockDirectly { outstandingTasks -= 1 }
            tasksEnded.broadcastDirectly()
        }
        if let taskPool { return Task.detached(executorPreference: taskPool, operation: operation) }
        return Task.detached(operation: operation)
    }

    // MARK: Waits

    /// Counts from now on which of the threads the scenario spawns wait for good
    /// (``StressWaits``), for ``awaitOthersQuiescent(at:)``: call from the root thread before
    /// it spawns them.
    func countWaits() {
        lock.withLockDirectly { waits = StressWaits() }
        countsWaits.store(true, ordering: .releasing)
    }

    /// Whether the iteration counts its threads' waits.
    var isCountingWaits: Bool { countsWaits.load(ordering: .acquiring) }

    /// `thread` ended.
    func threadEnded(_ thread: SeamThreadID) {
        changeWaits { $0.ended(thread) }
    }

    /// `thread` is about to wait on `condition` without a deadline, releasing `mutex`:
    /// whether it waits, counted or not, or leaves.
    func willWait(
        _ thread: SeamThreadID, on condition: SeamCondition, releasing mutex: SeamMutex
    ) -> StressWaits.Entry {
        changeWaits { $0.willWait(thread, on: condition, releasing: mutex) } ?? .untracked
    }

    /// `thread`'s wait on `condition` returned: whether it leaves.
    func didWait(_ thread: SeamThreadID, on condition: SeamCondition) -> Bool {
        changeWaits { $0.didWait(thread, on: condition) } ?? false
    }

    /// A wake-up of one or `all` of `condition`'s waiters is about to be sent.
    func wakes(_ condition: SeamCondition, all: Bool) {
        changeWaits { $0.wakes(condition, all: all) }
    }

    /// Applies `change` to the counted waits, if they are counted, and tells the root thread.
    private func changeWaits<Result>(_ change: (inout StressWaits) -> Result) -> Result? {
        guard isCountingWaits else { return nil }
        let result = lock.withLockDirectly { () -> Result? in
            guard waits != nil else { return nil }
            return change(&waits!)
        }
        waitsChanged.broadcastDirectly()
        return result
    }

    // MARK: Abandoning

    /// Marks the iteration as hung and left behind: its threads stay where they are, but
    /// those that spin (yield or load atomics) slow down, so that they leave the processors
    /// to the rest of the process.
    func abandon() {
        abandoned.store(true, ordering: .relaxed)
    }

    /// Whether the iteration was left behind.
    var isAbandoned: Bool { abandoned.load(ordering: .relaxed) }

    // MARK: Outcome

    /// Records `failure` unless one was recorded before.
    func record(_ failure: StressFailure) {
        lock.withLockDirectly {
            if self.failure == nil { self.failure = failure }
        }
    }

    /// The first failure recorded, if any.
    var recordedFailure: StressFailure? { lock.withLockDirectly { failure } }
}

/// A failure recorded during a stress iteration: it decides the iteration's outcome.
enum StressFailure: Hashable, Sendable {
    /// A check failed with `message` at `file`:`line`.
    case checkFailed(message: String, file: String, line: UInt)
    /// Something threw `error`.
    case threw(error: String)

    /// The outcome an iteration that recorded this failure ends in.
    func outcome<Outcome>(_: Outcome.Type = Outcome.self) -> StressOutcome<Outcome> {
        switch self {
        case let .checkFailed(message, file, line): .checkFailed(message: message, file: file, line: line)
        case .threw(let error): .threw(error: error)
        }
    }
}

extension StressIteration: QuiescenceRuntime {
    /// Returns once every thread the scenario spawned since ``countWaits()`` has ended or
    /// waits for good (``StressWaits/isQuiescent``), opening the gate first. It may wait
    /// forever (a thread that spins, or waits otherwise than on a ``SeamCondition``): the run
    /// then ends the iteration as hung.
    func awaitOthersQuiescent(at location: SeamLocation) {
        openGate()
        lock.withLockDirectly { waitsChanged.waitDirectly(on: lock, until: { waits?.isQuiescent ?? true }) }
    }

    /// Abandons the threads that wait: each is woken, and leaves its wait by exiting, as a
    /// thread that starts a wait from now on does (``StressController``).
    func abandonWaitingThreads() {
        let waits = lock.withLockDirectly { self.waits?.release() ?? [] }
        for (condition, mutex) in waits { mutex.withLockDirectly { condition.broadcastDirectly() } }
    }
}
