@testable import Harness
import Testing

/// The guided strategy driven through a synthetic program: eight decisions among three
/// threads, and a "bug" reached only when all eight pick the one target thread. The
/// fingerprint an execution reports is how far along the target path it got, as coverage
/// of deeper code would be.
@Suite("Harness: the feedback-guided strategy keeps schedules that reached new interleavings and mutates them")
struct FeedbackGuidedTests {
    static let target = [2, 0, 1, 2, 2, 1, 0, 2]

    /// The execution (from 0) in which `strategy` first followed the whole target path
    /// within `budget`, or `nil`; each execution reports the depth it reached as its
    /// fingerprint when `feedback` is on.
    static func firstDeepExecution(_ strategy: inout some SchedulingStrategy, budget: Int, feedback: Bool = true)
        -> Int?
    {
        let candidates = (0..<3).map { Candidate(.thread($0)) }
        for execution in 0..<budget {
            guard strategy.beginExecution(execution) else { return nil }
            var depth = 0
            for decision in target.indices {
                let picked = candidates.withCandidates { strategy.choose(among: $0, running: nil) }
                if depth == decision, picked == target[decision] { depth += 1 }
            }
            if depth == target.count { return execution }
            if feedback { strategy.noteInterleaving(UInt64(depth)) }
            strategy.endExecution(steps: target.count)
        }
        return nil
    }

    @Test("it follows a path random walk reaches once in 6,561 executions within 1,500, for every seed tried")
    func reachesDeepPaths() {
        for seed in UInt64(1)...5 {
            var guided = FeedbackGuided(seed: seed)
            let found = Self.firstDeepExecution(&guided, budget: 1_500)
            #expect(found != nil, "seed \(seed)")
        }
    }

    @Test("without feedback it keeps nothing and walks blind: the same path is missed")
    func blindWithoutFeedback() {
        var missed = 0
        for seed in UInt64(1)...5 {
            var blind = FeedbackGuided(seed: seed)
            if Self.firstDeepExecution(&blind, budget: 1_500, feedback: false) == nil { missed += 1 }
        }
        #expect(missed >= 4)
    }

    @Test("HARNESS_STRATEGY spells it guided, without a parameter")
    func parsing() throws {
        #expect(try Strategy(parsing: "guided") == .guided)
        #expect(try Strategy(parsing: Strategy.guided.description) == .guided)
        #expect(throws: HarnessConfigurationError.self) { try Strategy(parsing: "guided:2") }
    }
}
