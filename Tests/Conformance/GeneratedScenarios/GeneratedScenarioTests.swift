@testable import Harness
import Testing

@Suite("Generated scenarios: generation reaches rare operation sequences and says when the budget looks marginal")
struct GeneratedScenarioTests {
    @Test(
        "a set that forgets a value inserted while it was being removed is found at the default options in 4 of 5 seeds"
    )
    func rareSequence() throws {
        var found = 0
        for seed in UInt64(1)...5 {
            var options = LinearizabilityOptions(seed: seed)
            options.shrinkCandidates = 0
            let report = try staleCacheSetTest().run("stale cache set", options: options)
            if let failure = report.failure {
                #expect(failure.reason.hasPrefix("not linearizable"))
                found += 1
            }
        }
        #expect(found >= 4)
    }

    @Test("the report counts sequence shapes; many operations in few scenarios are still growing, one is not")
    func sequenceCoverage() throws {
        let few = LinearizabilityOptions(scenarios: 2, schedulesPerScenario: 2, seed: 1)
        let growing = try staleCacheSetTest().run("stale cache set", options: few).sequenceCoverage
        #expect(growing.isGrowing)
        #expect(growing.distinctShapes > 10)
        #expect("\(growing)".hasSuffix("the budget looks marginal for the operation mix (raise HARNESS_SCENARIOS)"))
        #expect(
            SequenceCoverageText.summaryName("t", scenarios: 2, coverage: growing)
                == "t (2 generated, sequences still new: raise HARNESS_SCENARIOS)")
        let many = LinearizabilityOptions(scenarios: 10, schedulesPerScenario: 2, seed: 1)
        let saturated = try lookupOnlyTest().run("lookups", options: many).sequenceCoverage
        #expect(!saturated.isGrowing)
        #expect(saturated.distinctShapes == 6)
        #expect("\(saturated)" == "6 operation sequence shapes, none new in the last tenth of the scenarios")
        #expect(SequenceCoverageText.summaryName("t", scenarios: 10, coverage: saturated) == "t (10 generated)")
    }
}

/// Lookups only: a concurrent lookup, an ordered one, and the four triples of them are every
/// shape there is.
private func lookupOnlyTest() -> LinearizabilityTest<StaleCacheSet, SetModel<Int>> {
    LinearizabilityTest(model: SetModel<Int>()) { StaleCacheSet() }
        .operation(SetOperation.contains, .int(in: 1...9)) { set, value in set.contains(value) }
}
