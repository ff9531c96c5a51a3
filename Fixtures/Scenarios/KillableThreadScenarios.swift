import Harness
import Primitives

/// What the killable-thread scenarios need: `IOThread`'s contract, with a body that is
/// given as a plain closure.
public protocol KillableThread: AnyObject, Sendable {
    /// Starts the thread; false if it was started before.
    func start() -> Bool
    /// Kills the thread; see ``IOThread/kill(file:line:)`` for what it returns.
    func kill() -> Bool
    /// Registers a handler for the thread's exit.
    func onExit(_ handler: @escaping @Sendable (ExitKind) -> Void) -> OnExitRegistration
    /// Reaps the (joinable) thread.
    func join() -> IOThreadJoinResult
}

/// Makes a joinable killable thread running `body`.
public typealias KillableThreadMaker = @Sendable (_ body: @escaping @Sendable () -> Void) -> any KillableThread

/// The real ``IOThread`` as the scenarios see it.
public final class LiveIOThread: KillableThread {
    private let thread: IOThread

    /// A joinable `IOThread` running `body`.
    public init(_ body: @escaping @Sendable () -> Void) {
        thread = IOThread(joinable: true) { _ in body() }
    }

    public func start() -> Bool { thread.start() == .success }
    public func kill() -> Bool { thread.kill() }
    public func onExit(_ handler: @escaping @Sendable (ExitKind) -> Void) -> OnExitRegistration {
        thread.onExit(handler)
    }
    public func join() -> IOThreadJoinResult { thread.join() }
}

/// Scenarios for killable threads.
public enum KillableThreadScenarios {
    /// A body with two cancellation points that marks its completion as its last act.
    final class Progress: @unchecked Sendable {
        let completed = SeamAtomic(false)
        let runs = SeamAtomic(0)
        let kinds = AtomicBox<[ExitKind]>([])
    }

    static func body(_ progress: Progress) -> @Sendable () -> Void {
        {
            Seam.cancellationPoint()
            Seam.cancellationPoint()
            progress.completed.store(true)
        }
    }

    /// Seed defects 3 and 4: handlers registered before and during the run, while another
    /// thread kills, each run exactly once with one `ExitKind`, `.finished` exactly when the
    /// body completed; and a kill that says it did nothing came after the body completed.
    public static func killRacesExit(_ make: @escaping KillableThreadMaker) -> @Sendable (Scenario) -> Void {
        { scenario in
            let progress = Progress()
            let thread = make(body(progress))
            let handler: @Sendable (ExitKind) -> Void = { kind in
                progress.runs.add(1)
                progress.kinds.update { $0.append(kind) }
            }
            _ = thread.onExit(handler)
            Harness.check(thread.start(), "start failed")
            scenario.spawn { _ = thread.onExit(handler) }
            scenario.spawn {
                if !thread.kill() {
                    Harness.check(progress.completed.load(), "kill() did nothing although the body had not completed")
                }
            }
            scenario.joinAll()
            guard case .joined(let kind) = thread.join() else {
                Harness.check(false, "join did not reap the thread")
                return
            }
            let kinds = progress.kinds.load()
            Harness.check(progress.runs.load() == 2, "\(progress.runs.load()) handler runs, not 2")
            Harness.check(kinds.allSatisfy { $0 == kind }, "handlers were told \(kinds), join \(kind)")
            Harness.check(
                (kind == .finished) == progress.completed.load(),
                "exit \(kind) but completed: \(progress.completed.load())")
        }
    }

    /// Seed defect 5: a handler registered after the thread exited (here, killed) runs at
    /// once with the recorded kind.
    public static func lateHandlerRuns(_ make: @escaping KillableThreadMaker) -> @Sendable (Scenario) -> Void {
        { _ in
            let progress = Progress()
            let thread = make(body(progress))
            Harness.check(thread.start(), "start failed")
            _ = thread.kill()
            guard case .joined(let kind) = thread.join() else {
                Harness.check(false, "join did not reap the thread")
                return
            }
            let registration = thread.onExit { late in progress.kinds.update { $0.append(late) } }
            Harness.check(registration == .ranImmediately(kind), "a late handler was \(registration)")
            Harness.check(progress.kinds.load() == [kind], "the late handler saw \(progress.kinds.load())")
        }
    }

    /// Seed defect 7: joining a thread that has already finished reaps it.
    public static func joinAfterExit(_ make: @escaping KillableThreadMaker) -> @Sendable (Scenario) -> Void {
        { _ in
            let progress = Progress()
            let thread = make(body(progress))
            let exited = SeamAtomic(false)
            _ = thread.onExit { _ in exited.store(true) }
            Harness.check(thread.start(), "start failed")
            while !exited.load() { Seam.yield() }
            let result = thread.join()
            Harness.check(result == .joined(.finished), "joining a finished thread gave \(result)")
        }
    }
}
