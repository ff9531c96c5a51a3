import Dispatch
import Harness
import Primitives
import Testing

/// The README's worked GCD example, as it is written there: the racy cache is found (and
/// its expiry timers take no wall time), the fixed one passes.
@Suite("Drop-ins: the README's GCD example")
struct ReadmeGCDExampleTests {
    final class Cache: @unchecked Sendable {
        let queue = HarnessDispatchQueue(label: "cache", attributes: .concurrent)
        private var entries: [String: Int] = [:]
        let computations = HarnessAtomic(0)
        let fixed: Bool

        init(fixed: Bool) { self.fixed = fixed }

        func value(for key: String) -> Int {
            if fixed {
                return queue.sync(flags: .barrier) {
                    if let hit = entries[key] { return hit }
                    let computed = computations.wrappingAdd(1, ordering: .relaxed).newValue
                    entries[key] = computed
                    return computed
                }
            }
            if let hit = queue.sync(execute: { entries[key] }) { return hit }
            let computed = computations.wrappingAdd(1, ordering: .relaxed).newValue
            queue.async(flags: .barrier) { self.entries[key] = computed }
            queue.asyncAfter(deadline: .now() + .seconds(300), flags: .barrier) {
                self.entries[key] = nil
            }
            return computed
        }
    }

    static func scenario(fixed: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let cache = Cache(fixed: fixed)
            for _ in 0..<2 { scenario.spawn { _ = cache.value(for: "answer") } }
            scenario.joinAll()
            let computed = cache.computations.load(ordering: .relaxed)
            Harness.check(computed == 1, "computed \"answer\" \(computed) times")
        }
    }

    @Test(
        "the racy cache is found by every strategy within 200 schedules, in well under the expiry's five minutes",
        arguments: HarnessStrategyTests.strategies)
    func racy(strategy: Strategy) throws {
        let clock = ContinuousClock()
        let started = clock.now
        let options = ExplorationOptions(strategy: strategy, schedules: 2_000, seed: 1, keepsFailures: false)
        let report = try Harness.run("README cache", options: options, Self.scenario(fixed: false))
        let failure = try #require(report.failure)
        #expect("\(failure.reason)".contains("computed \"answer\" 2 times"))
        #expect(report.schedulesRun <= 200, "\(strategy) needed \(report.schedulesRun) schedules")
        #expect(started.duration(to: clock.now) < .seconds(60))
    }

    @Test("the cache that checks and inserts in one barrier block passes")
    func fixed() throws {
        let options = ExplorationOptions(strategy: .pos, schedules: 500, seed: 1, keepsFailures: false)
        let report = try Harness.run("README cache fixed", options: options, Self.scenario(fixed: true))
        #expect(report.failure == nil)
    }
}
