import Fixtures
import Harness
import Testing

@Suite("Release gate: the harness catches every mutant")
struct MutantGateTests {
    @Test("caught within budget, and the token replays the identical failure", arguments: Mutant.all)
    func caught(mutant: Mutant) throws {
        let options = ExplorationOptions(strategy: mutant.strategy, schedules: mutant.budget, seed: 1)
        let report = try Harness.run(mutant.name, options: options, mutant.scenario)
        let failure = try #require(report.failure, "\(mutant) survived \(mutant.budget) schedules")

        let replayed = try Harness.run(mutant.name, options: ExplorationOptions(replay: failure.token), mutant.scenario)
        let again = try #require(replayed.failure, "replaying \(failure.token) did not fail")
        #expect(again.reason == failure.reason)
        #expect(again.trace == failure.trace)
    }
}
