@testable import Harness
import Primitives
import Testing

@Suite("Harness: replay as a strategy")
struct ReplayThenSearchTests {
    @Test("a replay that leaves its token searches on with the token's strategy, and is reported and named as it")
    func searchesAsItsToken() throws {
        let recorded = ExplorationOptions(strategy: .pct(depth: 3), schedules: 500, seed: 7)
        let original = try #require(
            try Harness.run("evolving", options: recorded, ReplayTokenTests.lostUpdate(changed: false)).failure
        )
        #expect(original.token.strategy == "pct-3")
        var traces: [[TraceStep]] = []
        for strategy in [Strategy.random, .pos] {
            let replaying = ExplorationOptions(strategy: strategy, replay: original.token)
            let report = try Harness.run("evolving", options: replaying, ReplayTokenTests.lostUpdate(changed: true))
            let failure = try #require(report.failure)
            guard case .prefixAndSearch = failure.reproduction else {
                let reproduction = String(describing: failure.reproduction)
                Issue.record("expected a reproduction by prefix and search, got \(reproduction)")
                return
            }
            #expect(report.strategy == Strategy.pct(depth: 3))
            #expect(failure.token.strategy == original.token.strategy)
            traces.append(failure.trace)
        }
        #expect(traces[0] == traces[1], "the options' strategy searched, not the token's")
    }

    @Test("it follows nothing itself: each step goes to its base, and it hands over the recorded schedule")
    func forwardsToBase() {
        let steps = [EncodedStep(TraceStep(thread: 0, kind: .start, target: nil, location: nil))]
        var replay = ReplayThenSearch(following: steps, then: RandomWalk(seed: 3))
        var base = RandomWalk(seed: 3)
        let candidates = (0..<4).map { Candidate(.thread($0), access: nil) }
        #expect(replay.recordedSchedule == steps)
        #expect(RandomWalk(seed: 3).recordedSchedule == nil)
        #expect(replay.beginExecution(0) == base.beginExecution(0))
        for _ in 0..<20 {
            let replayed = candidates.withCandidates { replay.choose(among: $0, running: 0) }
            #expect(replayed == candidates.withCandidates { base.choose(among: $0, running: 0) })
        }
    }
}
