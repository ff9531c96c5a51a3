import Harness
import Testing

/// One exploration on several workers, and split between shards: the same findings as one
/// thread running every schedule in order. Nothing here depends on which worker finishes
/// first: the reports compared must be equal however the workers' executions interleave.
@Suite("Explorer: workers and schedule shards find what one thread finds")
struct ExplorerWorkersTests {
    /// Everything a report says but its wall time and its worker count, as text.
    struct Findings: Equatable, CustomStringConvertible {
        let schedules: Int
        let exhausted: Bool
        let failureExecution: Int?
        let failure: String?
        let lastSchedule: String?
        let coverage: Coverage

        init(_ report: ExplorationReport) {
            schedules = report.schedulesRun
            exhausted = report.exhausted
            failureExecution = report.failure?.token.execution
            failure = report.failure.map { "\($0.token)\n\($0.fullReport)" }
            lastSchedule = report.lastSchedule.map { "\($0)" }
            coverage = report.coverage
        }

        var description: String {
            "\(schedules) schedules, failure at \(failureExecution.map(String.init) ?? "none"), \(coverage)"
        }
    }

    static func explore(
        _ body: @escaping @Sendable (Scenario) throws -> Void,
        strategy: Strategy,
        schedules: Int = 120,
        seed: UInt64 = 11,
        workers: Int = 1,
        shard: ScheduleShard? = nil
    ) throws -> ExplorationReport {
        try Harness.run(
            "explorer workers",
            options: ExplorationOptions(
                strategy: strategy, schedules: schedules, seed: seed, keepsFailures: false, workers: workers,
                shard: shard),
            body
        )
    }

    @Test(
        "a failure, its shrunk schedule, its token and the counts are the same for 1 to 4 workers",
        arguments: [Strategy.random, .pos], [UInt64(3), 11, 29])
    func sameFailure(strategy: Strategy, seed: UInt64) throws {
        let alone = try Self.explore(HarnessScenarios.lostUpdateAmongLocks, strategy: strategy, seed: seed)
        let failing = try #require(alone.failure, "the lost update is found within the budget")
        #expect(alone.workers == 1)
        for workers in 2...4 {
            let report = try Self.explore(
                HarnessScenarios.lostUpdateAmongLocks, strategy: strategy, seed: seed, workers: workers)
            #expect(report.workers == workers)
            #expect(
                Findings(report) == Findings(alone), "\(workers) workers, first failure at \(failing.token.execution)")
        }
    }

    @Test("a passing exploration runs the same schedules and ends on the same one for 1 to 3 workers")
    func samePass() throws {
        let alone = try Self.explore(HarnessScenarios.lockedIncrements, strategy: .random, schedules: 90)
        #expect(alone.failure == nil && alone.schedulesRun == 90)
        for workers in 2...3 {
            let report = try Self.explore(
                HarnessScenarios.lockedIncrements, strategy: .random, schedules: 90, workers: workers)
            #expect(Findings(report) == Findings(alone))
        }
    }

    @Test(
        "a strategy that carries state from one schedule to the next runs on one worker, as it would alone",
        arguments: [Strategy.pct(depth: 3), .surw, .guided, .exhaustive(preemptionBound: 1), .portfolio])
    func statefulOnOne(strategy: Strategy) throws {
        #expect(!strategy.schedulesAreIndependent)
        let alone = try Self.explore(HarnessScenarios.lostUpdateAmongLocks, strategy: strategy, schedules: 40)
        let asked = try Self.explore(
            HarnessScenarios.lostUpdateAmongLocks, strategy: strategy, schedules: 40, workers: 4)
        #expect(asked.workers == 1)
        #expect(Findings(asked) == Findings(alone))
    }

    @Test("no more workers than schedules")
    func fewSchedules() throws {
        #expect(
            try Self.explore(HarnessScenarios.lockedIncrements, strategy: .random, schedules: 2, workers: 8).workers
                == 2)
    }

    @Test(
        "shards of the schedules add up to the unsharded run: every schedule once, the same failure first",
        arguments: [2, 3])
    func shardsAddUp(count: Int) throws {
        for workers in [1, 2] {
            let whole = try Self.explore(HarnessScenarios.lockedIncrements, strategy: .random, schedules: 100)
            let shards = try (1...count).map { index in
                try Self.explore(
                    HarnessScenarios.lockedIncrements, strategy: .random, schedules: 100, workers: workers,
                    shard: ScheduleShard(index, of: count))
            }
            #expect(shards.reduce(0) { $0 + $1.schedulesRun } == whole.schedulesRun)
            // The unsharded run's last schedule is the last of the shard it falls in.
            let last = try #require(whole.lastSchedule)
            #expect(shards.contains { $0.lastSchedule.map { "\($0)" } == "\(last)" })

            let failing = try Self.explore(HarnessScenarios.lostUpdateAmongLocks, strategy: .random)
            let failure = try #require(failing.failure)
            let found = try (1...count).map { index in
                try Self.explore(
                    HarnessScenarios.lostUpdateAmongLocks, strategy: .random, workers: workers,
                    shard: ScheduleShard(index, of: count))
            }
            let first = try #require(
                found.filter { $0.failure != nil }.min { $0.failure!.token.execution < $1.failure!.token.execution })
            #expect(Findings(first).failure == Findings(failing).failure)
            // Up to the failure, the shards ran exactly the unsharded run's schedules.
            let upToFailure = (1...count).reduce(0) {
                $0 + ScheduleShard($1, of: count).scheduleCount(budget: failure.token.execution + 1)
            }
            #expect(upToFailure == failing.schedulesRun)
            #expect(
                first.schedulesRun
                    == ScheduleShard(first.failure!.token.execution % count + 1, of: count)
                    .scheduleCount(budget: failure.token.execution + 1))
        }
    }

    @Test("a shard of a strategy that carries state is an error naming the option")
    func statefulShard() {
        var options = ExplorationOptions(strategy: .pct(depth: 3))
        options.shard = ScheduleShard(1, of: 2)
        let error = HarnessConfigurationError.invalid(
            setting: "ExplorationOptions.shard", value: "1/2",
            expected: "a strategy whose schedules are independent (random or pos), not pct:3")
        #expect(throws: error) { try options.validate() }
        #expect(throws: HarnessError.configuration(error)) {
            _ = try Harness.run("explorer workers", options: options, HarnessScenarios.lockedIncrements)
        }
    }
}
