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

    /// A user's cache: a dictionary guarded by a concurrent queue, read in a `sync` block and
    /// written in a barrier `sync`, with the value computed between them: two callers that
    /// both miss compute it twice.
    final class Cache: @unchecked Sendable {
        static let readLine = #line + 7
        static let writeLine = #line + 8
        private let queue = HarnessDispatchQueue(label: "cache", attributes: .concurrent)
        private var entries: [String: Int] = [:]
        let computations = HarnessAtomic(0)

        func value(for key: String) -> Int {
            if let hit = queue.sync(execute: { entries[key] }) { return hit }
            let computed = computations.wrappingAdd(1, ordering: .relaxed).newValue
            queue.sync(flags: .barrier) { entries[key] = computed }
            return computed
        }
    }

    @Test("a check-then-act race on a queue-guarded dictionary reads as the sync calls at the user's lines")
    func cacheRace() throws {
        let options = ExplorationOptions(schedules: 500, seed: 1, keepsFailures: false)
        let report = try Harness.run("cache race", options: options) { scenario in
            let cache = Cache()
            for _ in 0..<2 { scenario.spawn { _ = cache.value(for: "answer") } }
            scenario.joinAll()
            let computed = cache.computations.load(ordering: .relaxed)
            Harness.check(computed == 1, "computed \"answer\" \(computed) times")
        }
        let failure = try #require(report.failure)
        let message = failure.message
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 30, "\(message)")
        for harnessName in ["mutex#", "condition#", "Primitives/", "HarnessDispatch"] {
            #expect(!message.contains(harnessName), "\(harnessName) in:\n\(message)")
        }
        // Both threads read under `sync`, then both write under the barrier `sync`.
        let read = "queue#1 sync @DropInCallTests.swift:\(Cache.readLine)"
        let write = "queue#1 sync @DropInCallTests.swift:\(Cache.writeLine)"
        let reads = lines.filter { $0.hasSuffix(read) }
        let writes = lines.filter { $0.hasSuffix(write) }
        #expect(reads.count == 2 && writes.count == 2, "\(message)")
        let lastRead = try #require(lines.lastIndex { $0.hasSuffix(read) })
        let firstWrite = try #require(lines.firstIndex { $0.hasSuffix(write) })
        #expect(lastRead < firstWrite, "both read before a write:\n\(message)")
        // The picture pairs a thread's read with the other's write on the queue, at those lines,
        // and nothing inside the queue.
        let picture = failure.picture
        let queue = TraceTarget.object(SharedObject(.queue, 1))
        #expect(
            picture.conflicts.allSatisfy {
                $0.target.object?.kind.isDropIn == true || $0.target.object?.kind == .atomic
            })
        let readThenWrite = picture.conflicts.filter { conflict in
            conflict.target == queue && failure.trace[conflict.earlier].location?.line == UInt(Cache.readLine)
                && failure.trace[conflict.later].location?.line == UInt(Cache.writeLine)
        }
        #expect(!readThenWrite.isEmpty, "\(picture.conflicts)")
        #expect(picture.html.contains("sync <em>queue#1</em>") && !picture.html.contains("condition#"))
    }
}
