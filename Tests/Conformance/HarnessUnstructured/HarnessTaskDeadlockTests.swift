import Dispatch
import Foundation
import Harness
import Primitives
import Synchronization
import Testing

/// Tasks that wait for good are a deadlock of tasks, found in the first schedule, in the
/// test's own process and isolated alike: the report names each task and the line of the
/// user's code where it waits, and nothing of the harness. Work that escapes the harness is
/// reported as the escape, never as the user's check failing.
@Suite("Harness: deadlocks among tasks, and escapes")
struct HarnessTaskDeadlockTests {
    typealias Scenarios = TaskDeadlockScenarios

    static let isolations: [ExplorationIsolation] = [.none, .process]

    /// Explores `scenario` expecting a deadlock of tasks in the first schedule, replays its
    /// token the same way; returns its blocked tasks and the report's text.
    static func blockedTasks(
        _ name: String,
        isolation: ExplorationIsolation,
        _ scenario: @escaping @Sendable (Scenario) -> Void
    ) throws -> (tasks: [BlockedTask], message: String) {
        var options = ExplorationOptions(schedules: 20, seed: 1, keepsFailures: false)
        options.isolation = isolation
        let report = try Harness.run(name, options: options, scenario)
        let failure = try #require(report.failure, "no deadlock in \(report.schedulesRun) schedules")
        #expect(report.schedulesRun == 1)
        guard case .tasksDeadlocked(let tasks) = failure.reason else {
            Issue.record("expected a deadlock of tasks, got \(failure.reason)")
            return ([], failure.message)
        }
        for harnessWord in ["AsyncServices", "Harness/", "GlobalEnqueueHook"] {
            #expect(!failure.message.contains(harnessWord), "the report names the harness: \(failure.message)")
        }
        var replay = ExplorationOptions(replay: failure.token, keepsFailures: false)
        replay.isolation = isolation
        let replayed = try Harness.run(name, options: replay, scenario).failure
        #expect(replayed?.reason == failure.reason, "the token did not reproduce the deadlock")
        #expect(replayed?.trace == failure.trace, "the token did not replay the same schedule")
        return (tasks, failure.message)
    }

    static func place(_ line: Int, _ function: String) -> CodePlace {
        CodePlace(file: "TaskDeadlockScenarios.swift", line: line, function: function)
    }

    static let receive = place(Scenarios.receiveLine, "TaskDeadlockScenarios.Mailbox.receive()")

    @Test("two actors waiting on each other through continuations, each in a Task {}", arguments: isolations)
    func peersInUnstructuredTasks(isolation: ExplorationIsolation) throws {
        let (tasks, _) = try Self.blockedTasks(
            "peers in Task {}", isolation: isolation, Scenarios.peersInUnstructuredTasks
        )
        #expect(tasks.map(\.waitsAt) == [Self.receive, Self.receive])
        #expect(tasks.map(\.startedIn?.line) == Scenarios.unstructuredPeersLines)
        #expect(tasks.map(\.name) == [nil, nil])
        #expect(tasks.map(\.awaits) == [.continuation, .continuation])
    }

    @Test(
        "two actors waiting on each other through continuations, each in a named scenario task",
        arguments: isolations
    )
    func peersInScenarioTasks(isolation: ExplorationIsolation) throws {
        let (tasks, message) = try Self.blockedTasks(
            "peers in scenario tasks", isolation: isolation, Scenarios.peersInScenarioTasks
        )
        #expect(tasks.map(\.name) == ["first", "second"])
        #expect(tasks.map(\.waitsAt) == [Self.receive, Self.receive])
        let firstWaits = "task \(tasks[0].task) 'first' waits at TaskDeadlockScenarios.swift:\(Scenarios.receiveLine)"
        #expect(message.contains(firstWaits), "\(message)")
    }

    @Test("a scenario task on a continuation nobody resumes", arguments: isolations)
    func neverResumed(isolation: ExplorationIsolation) throws {
        let (tasks, _) = try Self.blockedTasks(
            "never resumed", isolation: isolation, Scenarios.neverResumedInScenarioTask
        )
        #expect(tasks.map(\.name) == ["waiter"])
        #expect(tasks.map(\.waitsAt) == [Self.receive])
    }

    @Test("a Task {} left on a continuation nobody resumes when the scenario's body returns", arguments: isolations)
    func leftWaitingAtTheEnd(isolation: ExplorationIsolation) throws {
        let (tasks, _) = try Self.blockedTasks("left waiting", isolation: isolation, Scenarios.neverResumedAtTheEnd)
        #expect(tasks.map(\.waitsAt) == [Self.receive])
        #expect(tasks.map(\.awaits) == [.continuation])
        #expect(tasks.map(\.startedIn?.line) == [Scenarios.leftWaitingLine])
    }

    /// Tasks that await each other's values can be woken by nothing outside the harness: the
    /// deadlock is reported without the grace given to a resume from outside, and says so.
    @Test(
        "a task awaiting a task that awaits it, reported without waiting for a resume from outside",
        arguments: isolations
    )
    func mutualAwait(isolation: ExplorationIsolation) throws {
        let (tasks, message) = try Self.blockedTasks("mutual await", isolation: isolation, Scenarios.mutualAwait)
        #expect(Set(tasks.compactMap(\.waitsAt?.line)) == [Scenarios.awaitStoredLine, Scenarios.awaitFirstLine])
        #expect(Set(tasks.map(\.awaits)) == Set(tasks.map { .task($0.task) }))
        let atOnce = "tasks wait for each other, and nothing outside the harness can wake them"
        #expect(message.contains(atOnce), "\(message)")
    }

    @Test("a deadlock of tasks reads: each task, its name, where it waits and what started it")
    func rendering() {
        let failure = ExecutionFailure.tasksDeadlocked(tasks: [
            BlockedTask(
                task: 2,
                name: "first",
                waitsAt: CodePlace(file: "Peer.swift", line: 17, function: "receive()"),
                startedIn: CodePlace(file: "PeerTests.swift", line: 30, function: "run()")
            ),
            BlockedTask(task: 3, name: nil, waitsAt: nil, startedIn: nil)
        ])
        #expect(
            "\(failure)" == """
                deadlock: tasks wait for good, with nothing left to wake them
                  task 2 'first' waits at Peer.swift:17 in receive(), started in PeerTests.swift:30 in run()
                  task 3 waits (where is unknown: no debug information)
                """)
    }

    @Test("a deadlock of tasks says what each awaits, and whether a resume from outside was waited for")
    func renderingAwaits() {
        let first = CodePlace(file: "Peer.swift", line: 17, function: "receive()")
        let eachOther = ExecutionFailure.tasksDeadlocked(tasks: [
            BlockedTask(task: 2, name: nil, waitsAt: first, startedIn: nil, awaits: .task(3)),
            BlockedTask(task: 3, name: nil, waitsAt: first, startedIn: nil, awaits: .task(2))
        ])
        #expect(
            "\(eachOther)" == """
                deadlock: tasks wait for each other, and nothing outside the harness can wake them
                  task 2 waits at Peer.swift:17 in receive() for task 3
                  task 3 waits at Peer.swift:17 in receive() for task 2
                """)
        let resumable = ExecutionFailure.tasksDeadlocked(tasks: [
            BlockedTask(task: 2, name: nil, waitsAt: first, startedIn: nil, awaits: .continuation),
            BlockedTask(task: 3, name: nil, waitsAt: nil, startedIn: nil, awaits: .foreignTask)
        ])
        #expect(
            "\(resumable)" == """
                deadlock: tasks wait for good, with nothing left to wake them (none was resumed from outside the \
                harness within the grace)
                  task 2 waits at Peer.swift:17 in receive() on a continuation
                  task 3 waits (where is unknown: no debug information) for a task outside the harness
                """)
    }

    @Test("the token client whose refreshes coalesce passes isolated")
    func tokenClientIsolated() throws {
        var options = ExplorationOptions(schedules: 100, seed: 1, keepsFailures: false)
        options.isolation = .process
        let report = try Harness.run("token client", options: options, Scenarios.concurrentRefreshes)
        #expect(report.failure == nil, "\(String(describing: report.failure?.reason))")
    }

    /// In the test's own process the client's `Task {}`, started on the actor, sleeps on the
    /// platform's executor: the harness reports the escape (or, when it arrives after the
    /// grace, the callers waiting for it), never the check.
    @Test("in the test's own process the token client fails, if at all, with the escape, never its check")
    func tokenClientInProcess() throws {
        let options = ExplorationOptions(schedules: 20, seed: 1, keepsFailures: false)
        let report = try Harness.run("token client in-process", options: options, Scenarios.concurrentRefreshes)
        switch report.failure?.reason {
        case nil, .escaped?, .tasksDeadlocked?:
            break
        case let reason?:
            Issue.record("the token client failed with \(reason)")
        }
        if case .escaped(let escape)? = report.failure?.reason {
            #expect(!escape.executorsOwned)
            #expect(escape.task != nil)
        }
    }

    /// An executor of the test's own: a thread the harness does not control runs its jobs.
    final class OutsideExecutor: SerialExecutor, @unchecked Sendable {
        private let jobs = Mutex<[UnownedJob]>([])
        private let queued = DispatchSemaphore(value: 0)

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            jobs.withLock { $0.append(job) }
            queued.signal()
        }

        /// Runs the first job it is given, once it is given one, on the calling thread.
        func runOne() {
            queued.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    actor OutsideActor {
        let executor: OutsideExecutor
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        init(executor: OutsideExecutor) {
            self.executor = executor
        }

        func visit() {}
    }

    /// A task that hops to an actor whose executor runs outside the harness is queued, then
    /// running, outside the execution while every thread of it waits: the harness waits for
    /// its job to come back, however long that takes (up to the stall timeout), and reports
    /// the escape rather than the deadlock a fixed grace could leave.
    @Test("a task queued on an executor outside the harness is waited for, and reported as the escape")
    func underwayOutside() throws {
        let executor = OutsideExecutor()
        Thread.detachNewThread { executor.runOne() }
        let report = try Harness.run("underway outside", options: ExplorationOptions(schedules: 1)) { scenario in
            scenario.task { await OutsideActor(executor: executor).visit() }
            scenario.joinAll()
        }
        guard case .escaped(let escape)? = report.failure?.reason else {
            Issue.record("expected an escape, got \(String(describing: report.failure?.reason))")
            return
        }
        #expect(escape.task == 1)
    }

    @Test("an escape takes precedence over the check that fails after it")
    func escapeBeforeCheck() throws {
        final class Flag: Sendable {
            let raised = Atomic<Bool>(false)
        }
        let report = try Harness.run("escape before check", options: ExplorationOptions(schedules: 1)) { scenario in
            let suspending = SeamAtomic(false)
            let resumed = Flag()
            let release = DispatchSemaphore(value: 0)
            scenario.task {
                await withCheckedContinuation { continuation in
                    suspending.store(true)
                    Thread.detachNewThread {
                        release.wait()
                        continuation.resume()
                        resumed.raised.store(true, ordering: .releasing)
                    }
                }
            }
            while !suspending.load() { Seam.yield() }
            release.signal()
            // Outside the seam: the foreign thread has enqueued the resumed task when it raises the flag.
            while !resumed.raised.load(ordering: .acquiring) {}
            Harness.check(false, "the check that fails after the escape")
        }
        guard case .escaped(let escape)? = report.failure?.reason else {
            Issue.record("expected an escape, got \(String(describing: report.failure?.reason))")
            return
        }
        #expect(escape.task == 1)
    }
}
