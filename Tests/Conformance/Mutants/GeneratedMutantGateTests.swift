import Fixtures
import Harness
import Testing

@Suite("Release gate: generated scenarios catch what the hand-written ones miss")
struct GeneratedMutantGateTests {
    /// The fuzz campaign's settings: the portfolio with 600 schedules and exhaustive search
    /// with 150, seeds 1 and 2.
    static let campaign: [(Strategy, Int, UInt64)] = [
        (.portfolio, 600, 1), (.portfolio, 600, 2), (.exhaustive(preemptionBound: 2), 150, 1),
        (.exhaustive(preemptionBound: 2), 150, 2)
    ]

    @Test(
        "the hand-written scenarios pass on the mutant under the fuzz campaign's settings",
        arguments: GeneratedMutant.all)
    func handWrittenMiss(mutant: GeneratedMutant) throws {
        for scenario in mutant.handWritten {
            for (strategy, schedules, seed) in Self.campaign {
                let options = ExplorationOptions(strategy: strategy, schedules: schedules, seed: seed)
                let report = try Harness.run("\(mutant.name): \(scenario.name)", options: options, scenario.scenario)
                let reason = String(describing: report.failure?.reason)
                #expect(
                    report.failure == nil, "\(scenario.name) [\(strategy), seed \(seed)] caught \(mutant): \(reason)")
            }
        }
    }

    @Test(
        "the generated scenarios catch it as not linearizable, shrink it, and its token replays the identical failure",
        arguments: GeneratedMutant.all)
    func generatedCatch(mutant: GeneratedMutant) throws {
        let report = try mutant.generated(mutant.name, mutant.options)
        let failure = try #require(report.failure, "\(mutant) survived \(report.scenariosRun) generated scenarios")
        #expect(failure.reason.hasPrefix("not linearizable"), "\(failure.reason)")
        #expect(failure.message.split(separator: "\n").count <= GeneratedScenarioFailure.maxLines, "\(failure.message)")
        #expect(failure.shrinkSteps > 0)

        let replayed = try mutant.generated(mutant.name, LinearizabilityOptions(replay: failure.token))
        let again = try #require(replayed.failure, "replaying \(failure.token) did not fail")
        #expect(again.failure.reproduction == .exact)
        #expect(again.failure.reason == failure.failure.reason)
        #expect(again.failure.trace == failure.failure.trace)
        #expect(again.table == failure.table)
    }
}
