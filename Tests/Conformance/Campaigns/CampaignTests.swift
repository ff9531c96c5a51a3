import Fixtures
import Foundation
@testable import Harness
import Primitives
import Testing

@Suite("Campaign: every front door's prologue and epilogue, from one snapshot of the environment")
struct CampaignTests {
    /// A campaign named `name` of `frontDoor` under `variables`, adding to `run`.
    static func campaign(
        _ name: String,
        _ frontDoor: Knob.FrontDoor,
        _ variables: [String: String],
        run: RunState = RunState()
    ) -> Campaign {
        let environment = EnvironmentSnapshot(variables)
        return Campaign(name, frontDoor, sourceLocation: #_sourceLocation, environment: environment, run: run)
    }

    static let queue = QueueOperations.test { LockedQueue<Int>() }

    @Test("explore, stress and generated scenarios each run with the budget of their campaign's snapshot")
    func snapshotOverridesOptions() async throws {
        let explored = try #require(
            Self.campaign("campaign explore", .explore, ["HARNESS_SCHEDULES": "3"])
                .explore(ExplorationOptions(schedules: 50, seed: 1, keepsFailures: false)) { scenario in
                    let counter = SeamAtomic(0)
                    scenario.spawn { counter.store(1) }
                    scenario.spawn { counter.store(2) }
                    scenario.joinAll()
                })
        #expect(explored.schedulesRun == 3)
        let stressing = Self.campaign("campaign stress", .stress, ["HARNESS_STRESS_ITERATIONS": "5"])
        let stressed = try #require(
            await stressing
                .stress(StressOptions(iterations: 1_000, timeBudget: nil, escalation: nil), StressTest { _ in }))
        #expect(stressed.iterations == 5)
        let generated = try #require(
            Self.campaign("campaign generated", .generated, ["HARNESS_SCENARIOS": "2"])
                .check(Self.queue, LinearizabilityOptions(scenarios: 6, schedulesPerScenario: 5, seed: 1)))
        #expect(generated.scenariosRun == 2)
    }

    @Test(
        "an invalid value in the snapshot is an issue naming it, at every front door",
        arguments: [
            (Knob.FrontDoor.explore, "HARNESS_SCHEDULES"), (.stress, "HARNESS_STRESS_ITERATIONS"),
            (.generated, "HARNESS_SCENARIOS")
        ])
    func invalidSetting(frontDoor: Knob.FrontDoor, variable: String) async {
        let campaign = Self.campaign("campaign invalid", frontDoor, [variable: "0"])
        await withKnownIssue {
            switch frontDoor {
            case .explore: #expect(campaign.explore(ExplorationOptions(keepsFailures: false)) { _ in } == nil)
            case .stress: #expect(await campaign.stress(StressOptions(escalation: nil), StressTest { _ in }) == nil)
            default: #expect(campaign.check(Self.queue, LinearizabilityOptions(seed: 1)) == nil)
            }
        } matching: { issue in
            "\(issue)".contains("\(variable)='0' is invalid")
        }
    }

    @Test("a campaign in another shard runs nothing, and a stress campaign knows no shards")
    func shard() async throws {
        let elsewhere = (1...2).map { "\($0)/2" }.first { shard in
            let environment = EnvironmentSnapshot([Knob.shard.name: shard])
            return (try? HarnessEnvironment.shard(in: environment))??.includes("campaign shard") == false
        }
        let variables = [Knob.shard.name: try #require(elsewhere)]
        let explore = Self.campaign("campaign shard", .explore, variables)
        #expect(explore.explore(ExplorationOptions(keepsFailures: false)) { _ in } == nil)
        let generated = Self.campaign("campaign shard", .generated, variables)
        #expect(generated.check(Self.queue, LinearizabilityOptions(scenarios: 1, seed: 1)) == nil)
        let stress = Self.campaign("campaign shard", .stress, variables)
        #expect(await stress.stress(StressOptions(iterations: 2, escalation: nil), StressTest { _ in }) != nil)
    }

    @Test("shards of schedules split a random exploration between them; a PCT one goes whole to one shard")
    func scheduleShards() throws {
        func explore(
            _ strategy: Strategy, shard: String?, _ body: @escaping @Sendable (Scenario) -> Void
        ) -> ExplorationReport? {
            let variables = shard.map { [Knob.shard.name: $0] } ?? [:]
            return Self.campaign("campaign schedule shard", .explore, variables)
                .explore(ExplorationOptions(strategy: strategy, schedules: 30, seed: 5, keepsFailures: false), body)
        }
        let passing: @Sendable (Scenario) -> Void = HarnessScenarios.lockedIncrements
        let whole = try #require(explore(.random, shard: nil, passing))
        let shards = try (1...2).map { try #require(explore(.random, shard: "\($0)/2:schedules", passing)) }
        #expect(shards.map(\.schedulesRun) == [15, 15])
        #expect(shards.map(\.schedulesRun).reduce(0, +) == whole.schedulesRun)

        let failing: @Sendable (Scenario) -> Void = { HarnessScenarios.lostUpdate($0, counter: SeamAtomic(0)) }
        var failures: [HarnessFailure?] = []
        withKnownIssue {
            failures = [nil, "1/2:schedules", "2/2:schedules"].map { explore(.random, shard: $0, failing)?.failure }
        }
        let failure = try #require(failures[0])
        let found = failures.dropFirst().compactMap { $0 }
        let first = try #require(found.min { $0.token.execution < $1.token.execution })
        #expect("\(first.token)" == "\(failure.token)")

        let pct = (1...2).map { explore(.pct(depth: 3), shard: "\($0)/2:schedules", passing) }
        #expect(pct.compactMap { $0?.schedulesRun } == [30], "PCT's schedules depend on each other: one shard runs all")
    }

    @Test("explore and generated scenarios add a line each to the run's summary; stress adds none")
    func summary() async throws {
        let run = RunState()
        let options = ExplorationOptions(schedules: 2, seed: 1, keepsFailures: false)
        _ = Self.campaign("summed explore", .explore, [:], run: run).explore(options) { _ in }
        let generated = LinearizabilityOptions(scenarios: 2, schedulesPerScenario: 3, seed: 1)
        _ = Self.campaign("summed generated", .generated, [:], run: run).check(Self.queue, generated)
        let stress = StressOptions(iterations: 2, timeBudget: nil, escalation: nil)
        _ = await Self.campaign("summed stress", .stress, [:], run: run).stress(stress, StressTest { _ in })
        #expect(run.entries.map(\.scenario) == ["summed explore", "summed generated (2 generated)"])
        #expect(run.entries.map(\.schedules) == [2, 6])
    }

    @Test("a failure found is kept where the snapshot says, and replayed first by the next campaign")
    func keptFailures() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("campaign-kept-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let variables = [Knob.keepFailures.name: folder.path]
        let options = ExplorationOptions(strategy: .exhaustive(preemptionBound: 2), schedules: 1_000, seed: 1)
        withKnownIssue {
            _ = Self.campaign("kept lost update", .explore, variables).explore(options, HarnessScenarios.lostUpdate)
        } matching: { issue in
            "\(issue)".contains("an increment was lost")
        }
        let kept = try String(contentsOf: folder.appendingPathComponent("CampaignTests.txt"), encoding: .utf8)
        #expect(kept.contains("\nfails kept lost update "))
        withKnownIssue {
            _ = Self.campaign("kept lost update", .explore, variables).explore(options, HarnessScenarios.lostUpdate)
        } matching: { issue in
            "\(issue)".contains("kept failure 1 of 1 from \(folder.path)/CampaignTests.txt fails again")
        }
    }

    @Test("the options' token must fit the campaign; the environment's is replayed when it fits and noted either way")
    func replayTokens() throws {
        let report = try Harness.run("replayed", options: ExplorationOptions(seed: 1), HarnessScenarios.lostUpdate)
        let token = try #require(report.failure?.token)
        let fits = { (candidate: ReplayToken) in candidate.fits(scenario: "replayed") }
        let run = RunState()
        let variables = [Knob.replay.name: token.description]
        let replayed = Self.campaign("replayed", .run, variables, run: run)
        #expect(try replayed.replayToken(own: nil, setting: "own", fits: fits) == token)
        let other = Self.campaign("another", .run, variables, run: run)
        #expect(try other.replayToken(own: nil, setting: "own", fits: { $0.fits(scenario: "another") }) == nil)
        #expect(
            throws: HarnessConfigurationError.badReplayToken(
                setting: "own",
                .otherScenario(token: token.scenarioHash, scenario: "another")
            )
        ) {
            try other.replayToken(own: token, setting: "own") { $0.fits(scenario: "another") }
        }
        #expect(try Self.campaign("replayed", .run, [:]).replayToken(own: nil, setting: "own", fits: fits) == nil)
    }
}
