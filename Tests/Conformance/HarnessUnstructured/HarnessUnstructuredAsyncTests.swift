import Harness
import Primitives
import Testing

/// Under process isolation the harness owns the process's executors: unstructured tasks,
/// `MainActor` and system-clock sleeps run under it, and every strategy finds the bugs
/// people write with them, replays each from its token, and passes their fixes. In the
/// test's own process, what escapes is reported, never silently run.
@Suite("Harness: Task {}, Task.detached, MainActor and Task.sleep under isolation")
struct HarnessUnstructuredAsyncTests {
    static let strategies = HarnessStrategyTests.strategies
    static let budget = HarnessStrategyTests.budget

    static func isolated(_ strategy: Strategy, schedules: Int = budget, isolation: ExplorationIsolation = .process)
        -> ExplorationOptions
    {
        var options = ExplorationOptions(strategy: strategy, schedules: schedules, seed: 1, keepsFailures: false)
        options.isolation = isolation
        return options
    }

    /// Finds a failure of `scenario` under `strategy` (in a child process, unless told
    /// otherwise), checks its message, and replays its token the same way.
    static func findAndReplay(
        _ name: String,
        _ strategy: Strategy,
        isolation: ExplorationIsolation = .process,
        _ scenario: @escaping @Sendable (Scenario) -> Void,
        expecting text: String
    ) throws {
        let report = try Harness.run(name, options: Self.isolated(strategy, isolation: isolation), scenario)
        let failure = try #require(
            report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect("\(failure.reason)".contains(text), "\(failure.reason)")
        var replay = ExplorationOptions(
            replay: try ReplayToken(parsing: failure.token.description), keepsFailures: false)
        replay.isolation = isolation
        let replayed = try #require(
            try Harness.run(name, options: replay, scenario).failure, "the token did not reproduce the failure")
        #expect("\(replayed.reason)".contains(text), "\(replayed.reason)")
        #expect(replayed.trace == failure.trace, "the token did not replay the same schedule")
    }

    /// Explores the fixed `scenario` under `strategy` for the passing budget (in a child
    /// process, unless told otherwise), expecting no failure.
    static func passes(
        _ name: String,
        _ strategy: Strategy,
        isolation: ExplorationIsolation = .process,
        _ scenario: @escaping @Sendable (Scenario) -> Void
    ) throws {
        let options = Self.isolated(strategy, schedules: HarnessStrategyTests.passingBudget, isolation: isolation)
        let report = try Harness.run(name, options: options, scenario)
        #expect(report.failure == nil, "\(String(describing: report.failure?.reason))")
    }

    @Test(
        "a fire-and-forget Task {} that records to an actor is found racing the read after it, and replayed",
        arguments: strategies)
    func fireAndForget(strategy: Strategy) throws {
        try Self.findAndReplay(
            "fire and forget", strategy, UnstructuredAsyncScenarios.fireAndForgetAudit(awaitsAudit: false),
            expecting: "the audit log had 0 entries")
    }

    @Test("a Task {}'s lane is named by the line that created it, in the report and the picture")
    func taskLaneNamedByCreation() throws {
        let report = try Harness.run(
            "fire and forget lanes", options: Self.isolated(.pos),
            UnstructuredAsyncScenarios.fireAndForgetAudit(awaitsAudit: false))
        let failure = try #require(report.failure)
        let line = UnstructuredAsyncScenarios.Checkout.auditTaskLine
        let created = "UnstructuredAsyncScenarios.swift:\(line)"
        let header = try #require(failure.message.split(separator: "\n").first { $0.hasPrefix("step ") })
        // The column is narrower than the name: it keeps the line.
        #expect(header.contains("task 2 UnstructuredAsyncScena…:\(line)"))
        #expect(failure.picture.lanes.map(\.label).contains("task 2 \(created)"), "\(failure.picture.lanes)")
    }

    @Test("awaiting the audit passes", arguments: strategies)
    func awaitedAudit(strategy: Strategy) throws {
        try Self.passes("awaited audit", strategy, UnstructuredAsyncScenarios.fireAndForgetAudit(awaitsAudit: true))
    }

    @Test(
        "a reply racing a timeout (Task.sleep, default clock) that resumes a continuation twice is found and replayed",
        arguments: strategies)
    func replyRacingTimeout(strategy: Strategy) throws {
        try Self.findAndReplay(
            "reply racing timeout on the default clock", strategy,
            UnstructuredAsyncScenarios.replyRacingTimeout(claimsAtomically: false),
            expecting: "SWIFT TASK CONTINUATION MISUSE")
    }

    @Test("claiming the continuation with one compare-and-exchange passes", arguments: strategies)
    func replyClaimedOnce(strategy: Strategy) throws {
        try Self.passes(
            "reply claimed once on the default clock", strategy,
            UnstructuredAsyncScenarios.replyRacingTimeout(claimsAtomically: true))
    }

    @Test("a Task {} held up between reading the clock and sleeping 100 ms (a busy job ran) sleeps 100 virtual ms")
    func sleepHeldUpByBusyJob() throws {
        let report = try Harness.run(
            "sleep beside a busy task", options: Self.isolated(.random, schedules: 40),
            UnstructuredAsyncScenarios.sleepBesideBusyTask())
        #expect(report.failure == nil, "\(String(describing: report.failure?.reason))")
        #expect(report.schedulesRun == 40)
    }

    @Test(
        "a MainActor count updated in two hops by detached background tasks is found losing an update, and replayed",
        arguments: strategies)
    func mainActorLostUpdate(strategy: Strategy) throws {
        try Self.findAndReplay(
            "main actor lost update", strategy, UnstructuredAsyncScenarios.mainActorDeliveries(inOneHop: false),
            expecting: "two deliveries left the screen showing 1")
    }

    @Test("updating the MainActor count in one hop passes", arguments: strategies)
    func mainActorOneHop(strategy: Strategy) throws {
        try Self.passes("main actor one hop", strategy, UnstructuredAsyncScenarios.mainActorDeliveries(inOneHop: true))
    }
}

/// In the test's own process the harness does not own the executors, but the jobs its
/// threads send to the global executor are still its own (``GlobalEnqueueHook``): a
/// `Task {}` runs under it, and a scenario task's `Task.sleep` on the default clock is
/// virtual. A `MainActor` hop is not, and is reported.
@Suite("Harness: Task {} and Task.sleep in the test's own process")
struct HarnessInProcessUnstructuredTests {
    static let options = ExplorationOptions(schedules: 20, seed: 1, keepsFailures: false)

    @Test(
        "a fire-and-forget Task {} is found racing the read after it, and replayed",
        arguments: HarnessStrategyTests.strategies)
    func fireAndForget(strategy: Strategy) throws {
        try HarnessUnstructuredAsyncTests.findAndReplay(
            "fire and forget in-process", strategy, isolation: .none,
            UnstructuredAsyncScenarios.fireAndForgetAudit(awaitsAudit: false), expecting: "the audit log had 0 entries")
    }

    @Test("awaiting the audit passes", arguments: HarnessStrategyTests.strategies)
    func awaitedAudit(strategy: Strategy) throws {
        try HarnessUnstructuredAsyncTests.passes(
            "awaited audit in-process", strategy, isolation: .none,
            UnstructuredAsyncScenarios.fireAndForgetAudit(awaitsAudit: true))
    }

    @Test("a MainActor hop from a scenario task is reported, naming isolation as the way to run it")
    func mainActorHopReported() throws {
        let report = try Harness.run("main actor hop in-process", options: Self.options) { scenario in
            scenario.task {
                let model = UnstructuredAsyncScenarios.ScreenModel()
                await UnstructuredAsyncScenarios.deliver(to: model, inOneHop: true)
            }
            scenario.joinAll()
        }
        let failure = try #require(report.failure)
        guard case .escaped(let escape) = failure.reason else {
            Issue.record("expected an escape, got \(failure.reason)")
            return
        }
        #expect(!escape.executorsOwned)
        #expect("\(failure.reason)".contains("`isolation: .process`"), "\(failure.reason)")
    }

    @Test(
        "Task.sleep on the default clock waits virtual time in a scenario task and in its Task {}: hours end at once"
    )
    func defaultClockSleepIsVirtual() throws {
        let report = try Harness.run("hours on the default clock", options: Self.options) { scenario in
            let hourSlept = SeamAtomic(false)
            let twoHoursSlept = SeamAtomic(false)
            scenario.task {
                try await Task.sleep(for: .seconds(3_600))
                hourSlept.store(true)
            }
            scenario.task {
                Task {
                    try await Task.sleep(nanoseconds: 7_200_000_000_000)
                    twoHoursSlept.store(true)
                }
            }
            scenario.joinAll()
            Harness.check(hourSlept.load() && twoHoursSlept.load(), "a sleeper did not wake")
        }
        #expect(report.failure == nil)
        #expect(report.schedulesRun == 20)
    }
}
