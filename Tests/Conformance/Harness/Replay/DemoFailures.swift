import Fixtures
import Foundation
import Harness
import Primitives
import Testing

/// Whether this process runs ``DemoFailures``: only a child test process that
/// ``ReplayCommandTests`` starts with ``variable`` set does.
enum DemoGate {
    static let variable = "CONFORMANCE_DEMO_FAILURES"
    static var isOpen: Bool { ProcessInfo.processInfo.environment[variable] == "1" }
    /// Set, the demo whose failure is kept runs its fixed code, as after a user's fix.
    static let fixedVariable = "CONFORMANCE_DEMO_FIXED"
    static var isFixed: Bool { ProcessInfo.processInfo.environment[fixedVariable] == "1" }
}

/// Tests that fail on purpose, as a user's tests fail, so that the replay commands they print
/// can be run as printed. A plain `swift test` skips them.
@Suite(.enabled(if: DemoGate.isOpen, "runs only in a child process of ReplayCommandTests"))
struct DemoFailures {

    @Test func plainExplore() {
        Harness.explore(
            "demo lost update", options: ExplorationOptions(schedules: 500, seed: 7), HarnessScenarios.lostUpdate)
    }

    @Test(arguments: Harness.seeds(default: [11, 12]))
    func parameterizedExplore(seed: UInt64) {
        Harness.explore(
            "demo lost update [seed \(seed)]", options: ExplorationOptions(schedules: 500, seed: seed),
            HarnessScenarios.lostUpdate)
    }

    @Test func isolatedExplore() {
        Harness.explore(
            "demo isolated lost update",
            options: ExplorationOptions(schedules: 500, seed: 7, isolation: .process),
            HarnessScenarios.lostUpdate
        )
    }

    @Test func runReturnsReport() throws {
        let report = try Harness.run(
            "demo run lost update", options: ExplorationOptions(schedules: 500, seed: 7), HarnessScenarios.lostUpdate)
        if let failure = report.failure {
            Issue.record(Comment(rawValue: failure.message))
        }
    }

    @Test func keptFailure() {
        let body = DemoGate.isFixed ? HarnessScenarios.lockedIncrements : HarnessScenarios.lostUpdate
        Harness.explore("demo kept failure", options: ExplorationOptions(schedules: 500, seed: 7), body)
    }

    /// Generated scenarios of a queue whose dequeue is split in two critical sections.
    @Test(arguments: Harness.seeds(default: [1]))
    func generatedScenarios(seed: UInt64) {
        QueueOperations.test { SplitDequeueQueue() }.check(
            "demo generated queue [seed \(seed)]", options: LinearizabilityOptions(seed: seed))
    }

    /// A test whose set-up hangs in the isolated child, where no stall detection reaches.
    @Test func childHangsBeforeExploring() {
        if ProcessInfo.processInfo.environment["HARNESS_CHILD_SCENARIO"] != nil {
            DispatchSemaphore(value: 0).wait()
        }
        Harness.explore("demo hanging child", options: ExplorationOptions(schedules: 1, isolation: .process)) { _ in }
    }

    /// A child that announces its process ID, then blocks outside the seam: the test kills
    /// this process and watches the child end with it.
    @Test func childBlocksForever() {
        Harness.explore(
            "demo blocked child",
            options: ExplorationOptions(schedules: 1, stallTimeout: .seconds(60), isolation: .process)
        ) { _ in
            FileHandle.standardError.write(Data("\(DemoFailures.childAnnouncement)\(getpid())\n".utf8))
            DispatchSemaphore(value: 0).wait()
        }
    }

    /// What ``childBlocksForever()``'s child prints before its process ID: a progress line,
    /// which the parent passes on.
    static let childAnnouncement = "harness: demo child "
}

/// A small campaign that passes, for the shard and summary tests of ``ReplayCommandTests``.
@Suite(.enabled(if: DemoGate.isOpen, "runs only in a child process of ReplayCommandTests"))
struct DemoCampaign {
    @Test(arguments: [Strategy.random, .pct(depth: 3), .exhaustive(preemptionBound: 1)], [UInt64(1), 2, 3])
    func lockedIncrements(strategy: Strategy, seed: UInt64) {
        Harness.explore(
            "demo campaign [\(strategy), seed \(seed)]",
            options: ExplorationOptions(strategy: strategy, schedules: 60, seed: seed),
            HarnessScenarios.lockedIncrements
        )
    }

    /// The limiter's bound under cancellation, as its fuzz suite explores it: its tasks free
    /// atomic cells during each execution, which once made its counts differ from one process
    /// to the next, and so the shards' sum from the unsharded run.
    @Test(arguments: [Strategy.portfolio, .exhaustive(preemptionBound: 2)], [UInt64(1), 2])
    func limiterBound(strategy: Strategy, seed: UInt64) {
        Harness.explore(
            "demo limiter [\(strategy), seed \(seed)]",
            options: ExplorationOptions(
                strategy: strategy, schedules: 100, seed: seed, isolation: .process, threads: .coroutines
            ),
            AsyncScenarios.limiterBoundUnderCancellation { LiveConcurrencyLimiter(concurrency: 2) }
        )
    }
}
