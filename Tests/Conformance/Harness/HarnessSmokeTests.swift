import Harness
import Primitives
import Testing

@Suite("Harness: finding bugs")
struct HarnessFindingTests {
    @Test(
        "finds a lost update and replays it exactly",
        arguments: [Strategy.random, .pct(depth: 2), .exhaustive(preemptionBound: 1)])
    func findsLostUpdate(strategy: Strategy) throws {
        let options = ExplorationOptions(strategy: strategy, schedules: 500, seed: 7)
        let report = try Harness.run("lost update", options: options, HarnessScenarios.lostUpdate)
        let failure = try #require(report.failure)
        guard case .invariant(let message, _, _, _) = failure.reason else {
            Issue.record("expected an invariant failure, got \(failure.reason)")
            return
        }
        #expect(message.contains("lost"))

        var replay = options
        replay.replay = try ReplayToken(parsing: failure.token.description)
        let replayed = try Harness.run("lost update", options: replay, HarnessScenarios.lostUpdate)
        let again = try #require(replayed.failure)
        #expect(again.trace == failure.trace)
        #expect(again.reason == failure.reason)
    }

    @Test("a correct scenario passes every schedule", arguments: [Strategy.random, .pct(depth: 3)])
    func lockedIncrementsPass(strategy: Strategy) throws {
        let report = try Harness.run(
            "locked", options: ExplorationOptions(strategy: strategy, schedules: 200, seed: 1),
            HarnessScenarios.lockedIncrements)
        #expect(report.failure == nil)
        #expect(report.schedulesRun == 200)
    }

    @Test("reports a lock-order deadlock with its cycle")
    func findsDeadlock() throws {
        let report = try Harness.run(
            "deadlock", options: ExplorationOptions(strategy: .exhaustive(preemptionBound: 2), schedules: 1000),
            HarnessScenarios.lockOrderInversion)
        let failure = try #require(report.failure)
        guard case .deadlock(let waits, let cycle) = failure.reason else {
            Issue.record("expected a deadlock, got \(failure.reason)")
            return
        }
        #expect(Set(try #require(cycle)) == [1, 2])
        #expect(waits.contains { if case .lock(_, holder: .some)? = $0.threadWait?.reason { true } else { false } })
    }

    @Test("reports a lost wake-up as a thread that can never finish")
    func findsLostWakeup() throws {
        let report = try Harness.run(
            "lost wakeup", options: ExplorationOptions(strategy: .random, schedules: 500, seed: 3),
            HarnessScenarios.lostWakeup)
        let failure = try #require(report.failure)
        #expect("\(failure.reason)".contains("nobody will signal"))
    }

    @Test("exhaustive search says when it has covered every schedule")
    func exhaustiveCompletes() throws {
        let report = try Harness.run(
            "locked", options: ExplorationOptions(strategy: .exhaustive(preemptionBound: 1), schedules: 100_000),
            HarnessScenarios.lockedIncrements)
        #expect(report.failure == nil)
        #expect(report.exhausted)
        #expect(report.schedulesRun > 1)
    }
}
