import Dispatch
@testable import Harness
import Primitives
import Testing

/// A report shows a Dispatch drop-in as the call the code made (`queue#1 sync`,
/// `semaphore#2 wait → timed out`, `group#1 wait`) at the caller's line, numbered among the
/// drop-ins of its kind, never as the mutexes and conditions inside it.
@Suite("Drop-in calls: a report shows the call the code made, not the drop-in's insides")
struct DropInCallTests {
    /// The line of the scenario's first call; the others follow it, one a line.
    static let firstCall = #line + 11

    static func scenario(_ scenario: Scenario) {
        let queue = HarnessDispatchQueue(label: "calls")
        let first = HarnessDispatchSemaphore(value: 1)
        let second = HarnessDispatchSemaphore(value: 0)
        let group = HarnessDispatchGroup()
        let counter = HarnessMutex(0)
        let ranAsync = HarnessAtomic(false)
        Seam.yield()
        // One call a line, from `firstCall` on.
        queue.sync { counter.withLock { $0 += 1 } }
        first.wait()
        _ = second.wait(timeout: .now() + .milliseconds(5))
        queue.async(group: group) { ranAsync.store(true, ordering: .relaxed) }
        group.wait()
        first.signal()
        Harness.check(false, "the end of the calls")
    }

    /// The calls the scenario's thread makes, by the line after ``firstCall`` each is on: an
    /// `async(group:)` enters its group.
    static let calls = [
        (0, "queue#1 sync"), (1, "semaphore#1 wait"), (2, "semaphore#2 wait → timed out"), (3, "group#1 enter"),
        (3, "queue#1 async"), (4, "group#1 wait"), (5, "semaphore#1 signal")
    ]

    /// The failure the scenario ends with, on its one schedule.
    static func failure() throws -> HarnessFailure {
        let options = ExplorationOptions(schedules: 1, seed: 1, keepsFailures: false)
        let report = try Harness.run("drop-in calls", options: options, Self.scenario)
        return try #require(report.failure)
    }

    @Test("each call is one step at the caller's line, in the order the code made them")
    func callsAtTheCallersLines() throws {
        let failure = try Self.failure()
        let calls = failure.trace.filter { $0.call != nil && $0.thread == 0 }
        let expected = Self.calls.map { offset, call in "\(call) @DropInCallTests.swift:\(Self.firstCall + offset)" }
        #expect(calls.map(\.rowText) == expected)
        #expect(calls.allSatisfy { !$0.isBookkeeping })
        // The block's thread leaves the group as its block ends.
        #expect(failure.trace.contains { $0.thread == 1 && $0.call?.operation == .leave })
    }

    @Test("the report writes the calls, numbers the code's own mutex first, and shows no drop-in's insides")
    func reportWritesTheCalls() throws {
        let failure = try Self.failure()
        let report = failure.fullReport
        let file = "DropInCallTests.swift"
        for (offset, call) in Self.calls {
            #expect(report.contains("\(call) @\(file):\(Self.firstCall + offset)"), "\(call) in:\n\(report)")
        }
        // The block's own lock: the code's mutex, numbered as the first.
        #expect(report.contains("lock mutex#1 @\(file):\(Self.firstCall)"), "\(report)")
        #expect(!report.contains("mutex#2") && !report.contains("condition#"), "\(report)")
        let visible = failure.trace.filter { !$0.isBookkeeping && $0.call == nil }
        #expect(!visible.contains { $0.target?.object?.kind.isDropIn == true }, "\(report)")
    }
}
