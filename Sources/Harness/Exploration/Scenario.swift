import Primitives
import Synchronization

/// The threads of one execution, as the scenario's body starts them.
///
/// A scenario's body runs on thread T0. Threads it spawns are numbered in spawn order
/// and joined automatically when the body returns; a thread that cannot finish then is a
/// failure (threads still running), and so is a task that waits for good then (a deadlock
/// of tasks, ``ExecutionFailure/tasksDeadlocked(tasks:)``).
///
/// The same body runs under the deterministic scheduler and under stress (``mode``); under
/// stress, spawns, tasks and joins go to the stress iteration.
public final class Scenario: @unchecked Sendable {
    /// The threads spawned and not joined yet. Touched only under the deterministic scheduler,
    /// which runs one thread at a time, and never across a seam operation: exempt from
    /// dynamic exclusivity checking, two `swift_beginAccess` calls for each thread.
    @exclusivity(unchecked) private var unjoined = UnjoinedThreads()
    /// The stress iteration this scenario runs in, under stress.
    private let stress: StressIteration?

    init() { stress = nil }

    init(stress: StressIteration) { self.stress = stress }

    /// How the scenario runs.
    public var mode: ScenarioMode { stress == nil ? .controlled : .stress }

    /// Starts a controlled thread running `body`. A thrown error fails the execution.
    @discardableResult
    public func spawn(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () throws -> Void
    ) -> ScenarioThread {
        if let stress { return ScenarioThread(thread: stress.spawn(file: file, line: line, body), scenario: self) }
        guard
            let thread = Execution.withCurrent({
                $0.spawnScenarioThread(file: file, line: line, body, onError: Harness.reportThrown)
            })
        else {
            preconditionFailure("a Scenario is used outside its execution")
        }
        unjoined.add(thread)
        return ScenarioThread(thread: thread, scenario: self)
    }

    /// Starts a task that prefers the execution's task executor: its jobs, and those of
    /// its child tasks, `async let`s, default actors and resumed continuations, are run by
    /// the harness in an order the strategy picks, interleaved with the threads. An error
    /// it throws fails the execution. Reports show the task as a lane of its own, named
    /// `name`, or where it was started.
    @discardableResult
    public func task(
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> ScenarioTask {
        if let stress { return ScenarioTask(task: stress.startTask(body)) }
        guard let execution = Execution.current else {
            preconditionFailure("a Scenario is used outside its execution")
        }
        let place = SeamLocation(fileID: file, line: line)
        return ScenarioTask(task: execution.services().startTask(named: name, at: place, body))
    }

    /// Starts a task as ``task(name:file:line:_:)`` does, but `create` makes it, perhaps in
    /// another task, which the new one then inherits its task-local values from (see
    /// `AsyncServices.startTask(name:createdBy:_:)`). Under the deterministic scheduler only.
    func task(
        name: String,
        createdBy create: (_ executor: any TaskExecutor, _ operation: @escaping @Sendable () async -> Void) -> Void,
        _ body: @escaping @Sendable () async throws -> Void
    ) {
        guard stress == nil, let execution = Execution.current else {
            preconditionFailure("a task made elsewhere is started outside an execution of the deterministic scheduler")
        }
        execution.services().startTask(name: .given(name), createdBy: create, body)
    }

    /// Joins every spawned thread not joined yet, and waits for every task started so far:
    /// those started with ``task(name:file:line:)`` to end, and those started with `Task {}`
    /// or `Task.detached` that the harness runs (every one under
    /// ``ExplorationIsolation/process``) to end or to wait for good (for a continuation nobody
    /// resumes), their sleeps included.
    public func joinAll(file: StaticString = #fileID, line: UInt = #line) {
        if let stress { return stress.joinAll(file: file, line: line) }
        while let thread = unjoined.first {
            join(thread, file: file, line: line)
        }
        _ = Execution.withCurrent { $0.startedServices?.waitUntilQuiet() }
    }

    func join(_ thread: SeamThread, file: StaticString, line: UInt) {
        if let stress { return stress.join(thread, file: file, line: line) }
        unjoined.remove(thread)
        do {
            try thread.join(file: file, line: line)
        } catch {
            preconditionFailure("joining a scenario thread failed: \(error)")
        }
        _ = Execution.withCurrent { $0.joinedHarnessThread(thread) }
    }
}

/// How a ``Scenario`` runs.
public enum ScenarioMode: Sendable, Hashable {
    /// Under the deterministic scheduler: one thread or task at a time, in an order a
    /// strategy picks, with sleeps on a virtual clock.
    case controlled
    /// Under stress: on real threads, its tasks on a real executor, at full speed, with
    /// sleeps on the real clock.
    case stress
}

/// A task a ``Scenario`` started.
public struct ScenarioTask: Sendable {
    let task: Task<Void, Never>

    /// Requests cancellation of the task. Its cancellation handlers run on the calling
    /// thread, while the runtime holds the task's lock, so the harness does not preempt
    /// the caller inside them.
    public func cancel() { Seam.withoutPreemption { task.cancel() } }
}

/// A thread a ``Scenario`` started.
public struct ScenarioThread: Sendable {
    let thread: SeamThread
    let scenario: Scenario

    /// The thread's number in reports (`T1` is 1).
    public var number: Int { thread.controlledID?.rawValue ?? -1 }

    /// Waits until the thread has finished (a scheduling point).
    public func join(file: StaticString = #fileID, line: UInt = #line) {
        scenario.join(thread, file: file, line: line)
    }
}

/// The scenario of one worker's last execution, kept for its next: an execution whose body
/// returned and whose threads were all joined leaves its ``Scenario`` here, with no thread
/// in it, and the next takes it instead of making one (an object, and its list of threads
/// once it spawns one). An execution that failed or stalled keeps its own, and the next
/// makes one. Safe from any thread: a stalled execution's thread 0, left behind, may leave
/// its scenario while a later execution takes one.
final class ScenarioSpare: Sendable {
    private let kept = Atomic<Unmanaged<Scenario>?>(nil)

    /// The scenario kept, if any, else a new one.
    func take() -> Scenario {
        kept.exchange(nil, ordering: .acquiringAndReleasing)?.takeRetainedValue() ?? Scenario()
    }

    /// Keeps `scenario`, whose threads were all joined, for the next execution.
    func keep(_ scenario: Scenario) {
        kept.exchange(Unmanaged.passRetained(scenario), ordering: .acquiringAndReleasing)?.release()
    }

    deinit {
        kept.load(ordering: .acquiring)?.release()
    }
}
