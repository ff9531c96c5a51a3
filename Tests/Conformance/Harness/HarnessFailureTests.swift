import Primitives
import Testing

@testable import Harness

/// The console report of a failure: which rows it shows of a long schedule, and how it
/// counts a shrunk schedule's steps.
@Suite("Harness: a failure's console report")
struct HarnessFailureTests {
    /// The line of the racing threads' load; their store is on the next.
    static let raceLine = #line + 8

    /// A lost update between two threads, then forty steps of T0 before the check: the race
    /// is far from the end of the schedule.
    static func raceThenTail(_ scenario: Scenario) {
        let counter = HarnessAtomic(0)
        for _ in 0..<2 {
            scenario.spawn {
                let seen = counter.load(ordering: .relaxed)
                counter.store(seen + 1, ordering: .relaxed)
            }
        }
        scenario.joinAll()
        for _ in 0..<40 { Seam.yield() }
        let total = counter.load(ordering: .relaxed)
        Harness.check(total == 2, "lost an update: \(total)")
    }

    static func raceFailure() throws -> HarnessFailure {
        let options = ExplorationOptions(strategy: .pct(depth: 3), schedules: 500, seed: 1, keepsFailures: false)
        return try #require(try Harness.run("race then tail", options: options, Self.raceThenTail).failure)
    }

    @Test("a long schedule shows the conflicting accesses and the end, with neighbours, and says what it left out")
    func showsWhatMatters() throws {
        let failure = try Self.raceFailure()
        let message = failure.message
        let lines = message.split(separator: "\n")
        #expect(lines.count <= 30, "\(message)")
        let file = "HarnessFailureTests.swift"
        for access in ["load atomic#1 @\(file):\(Self.raceLine)", "store atomic#1 @\(file):\(Self.raceLine + 1)"] {
            #expect(lines.count { $0.hasSuffix(access) } == 2, "\(access) of both threads in:\n\(message)")
        }
        #expect(lines.last?.hasSuffix("load atomic#1 @\(file):\(Self.raceLine + 6)") == true, "\(message)")
        #expect(message.contains("left out"), "\(message)")
        #expect(lines.count { $0.contains("yield @") } <= 2, "the tail crowds out the race:\n\(message)")
    }

    @Test("a shrunk schedule counts the steps a report shows, and says why when it is the longer")
    func shrunkCountsShownSteps() throws {
        let found = try Self.raceFailure()
        #expect(found.shownStepCount == found.trace.count { !$0.isBookkeeping })
        if let origin = found.shrunkFrom, found.shownStepCount > origin.steps {
            #expect(found.message.contains("more steps for"), "\(found.message)")
        }
        let longer = HarnessFailure(
            scenario: found.scenario, reason: found.reason, token: found.token, trace: found.trace, testID: nil,
            preemptions: 1, shrunkFrom: ShrinkOrigin(steps: found.shownStepCount - 3, preemptions: 3))
        #expect(
            longer.message.contains(
                "\(found.shownStepCount) steps, 1 preemption; shrunk from \(found.shownStepCount - 3) steps, "
                    + "3 preemptions (3 more steps for 2 fewer preemptions)"), "\(longer.message)")
        let shorter = HarnessFailure(
            scenario: found.scenario, reason: found.reason, token: found.token, trace: found.trace, testID: nil,
            preemptions: 1, shrunkFrom: ShrinkOrigin(steps: found.shownStepCount + 3, preemptions: 3))
        #expect(!shorter.message.contains("more steps for"), "\(shorter.message)")
    }
}
