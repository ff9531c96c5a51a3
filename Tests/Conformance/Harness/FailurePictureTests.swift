import Foundation
@testable import Harness
import Primitives
import Testing

/// The picture of a failure as values (lanes, conflicts, waits-for edges) and as a page,
/// without a browser; ``FailurePictureBrowserTests`` renders it.
@Suite("Harness: the picture of a failure")
struct FailurePictureTests {
    typealias Lane = FailurePicture.Lane
    typealias Conflict = FailurePicture.Conflict

    static func failure(
        _ name: String,
        options: ExplorationOptions = ExplorationOptions(schedules: 300, seed: 11),
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) throws -> HarnessFailure {
        try #require(try Harness.run(name, options: options, body).failure)
    }

    // MARK: Conflicts

    /// A failure with `trace` as its schedule (the steps' locations are all one line).
    private static func synthetic(
        _ trace: [(Int?, OperationKind, TraceTarget?)], reason: ExecutionFailure = .stepBoundExceeded(1)
    ) -> HarnessFailure {
        HarnessFailure(
            scenario: "synthetic",
            reason: reason,
            token: ReplayToken(scenario: "synthetic", strategy: "random", seed: 1, execution: 0, steps: []),
            trace: trace.map {
                TraceStep(
                    thread: $0.0, kind: $0.1, target: $0.2, location: SeamLocation(fileID: "Module/File.swift", line: 1)
                )
            },
            testID: nil
        )
    }

    struct RuleCase: CustomTestStringConvertible, Sendable {
        let name: String
        let trace: [(Int?, OperationKind, TraceTarget?)]
        let expected: [(earlier: Int, later: Int)]
        var testDescription: String { name }
    }

    /// The shared objects of the synthetic traces: two atomics, a mutex and a condition.
    static let (a, b) = (TraceTarget.object(SharedObject(.atomic, 1)), TraceTarget.object(SharedObject(.atomic, 2)))
    static let (m, c) = (TraceTarget.object(SharedObject(.mutex, 1)), TraceTarget.object(SharedObject(.condition, 1)))

    static let ruleCases: [RuleCase] = [
        RuleCase(
            name: "a lost update: the load the store made stale, the store overwritten, the load of the result",
            trace: [
                (1, .atomicLoad, a), (2, .atomicLoad, a), (2, .atomicStore, a), (1, .atomicStore, a),
                (0, .atomicLoad, a), (0, .atomicLoad, a)
            ],
            expected: [(0, 2), (2, 3), (3, 4)]
        ),
        RuleCase(name: "reads never conflict", trace: [(1, .atomicLoad, a), (2, .atomicLoad, a)], expected: []),
        RuleCase(
            name: "one lane's steps never conflict",
            trace: [(1, .atomicStore, a), (1, .atomicLoad, a), (1, .atomicStore, a)], expected: []),
        RuleCase(
            name: "other objects never conflict", trace: [(1, .atomicStore, a), (2, .atomicStore, b)], expected: []),
        RuleCase(
            name: "a write after several lanes' reads conflicts with each lane's latest read",
            trace: [(1, .atomicLoad, a), (1, .atomicLoad, a), (2, .atomicLoad, a), (3, .atomicReadModifyWrite, a)],
            expected: [(1, 3), (2, 3)]
        ),
        RuleCase(
            name: "a mutex handed from lane to lane",
            trace: [(1, .lock, m), (1, .unlock, m), (2, .lock, m), (2, .unlock, m), (1, .tryLock, m)],
            expected: [(1, 2), (3, 4)]
        ),
        RuleCase(
            name: "a signal before the wait it should have woken", trace: [(2, .signal, c), (1, .wait, c)],
            expected: [(0, 1)]),
        RuleCase(
            name: "thread operations and scheduler steps touch no shared object",
            trace: [
                (0, .join, .thread(1)), (2, .join, .thread(1)), (0, .cancel, .thread(1)),
                (nil, .advanceClock, .clockAdvance(nanoseconds: 1_000_000)),
                (nil, .advanceClock, .clockAdvance(nanoseconds: 1_000_000))
            ],
            expected: []
        ),
        RuleCase(
            name: "a read already ordered after the write by its own lane's earlier read is not paired again",
            trace: [(1, .atomicStore, a), (0, .atomicLoad, a), (0, .atomicLoad, a)],
            expected: [(0, 1)]
        )
    ]

    @Test(
        "conflicts: different lanes, one object, at least one write; pairs program order implies are left out",
        arguments: ruleCases)
    func conflictRule(_ rule: RuleCase) {
        let picture = Self.synthetic(rule.trace).picture
        #expect(picture.conflicts.map { [$0.earlier, $0.later] } == rule.expected.map { [$0.earlier, $0.later] })
        for conflict in picture.conflicts {
            #expect(conflict.target == rule.trace[conflict.earlier].2)
        }
    }

    @Test("a real lost update: its stores conflict across threads, and every pair follows the rule")
    func lostUpdate() throws {
        let failure = try Self.failure("picture lost update", HarnessScenarios.lostUpdate)
        let picture = failure.picture
        #expect(picture.lanes == [.thread(0), .thread(1), .thread(2)])
        for conflict in picture.conflicts {
            let earlier = failure.trace[conflict.earlier], later = failure.trace[conflict.later]
            #expect(earlier.thread != later.thread)
            #expect(earlier.target == conflict.target && later.target == conflict.target)
            #expect(FailurePicture.Access(earlier.kind) == .write || FailurePicture.Access(later.kind) == .write)
        }
        let overwrites = picture.conflicts.filter {
            failure.trace[$0.earlier].kind == .atomicStore && failure.trace[$0.later].kind == .atomicStore
        }
        #expect(overwrites.count == 1, "the lost update is one store overwriting another: \(picture.conflicts)")
        let note = try #require(picture.notes.first)
        #expect(picture.notes.count == 1)
        #expect(note.lane == .thread(0) && note.kind == .failed)
        #expect(note.text.hasPrefix("check failed at Conformance/HarnessScenarios.swift:"))
        #expect(note.text.hasSuffix(": an increment was lost: the counter is 1"))
        #expect(picture.waitsFor.isEmpty)
    }

    @Test("the harness's own steps (its task executor's lanes handing jobs over) are not conflicts")
    func harnessStepsAreNotConflicts() throws {
        let failure = try Self.failure(
            "picture suspended update",
            options: ExplorationOptions(schedules: 300, seed: 3),
            HarnessAsyncTests.suspendedUpdate
        )
        let harnessSteps = failure.trace.filter { $0.location?.fileID.hasPrefix("Harness/") == true }
        #expect(!harnessSteps.isEmpty, "the scenario's thread waits for the tasks through the seam")
        let conflicts = failure.picture.conflicts
        #expect(!conflicts.isEmpty)
        for conflict in conflicts {
            #expect(conflict.target.object?.kind == .atomic)
            #expect(failure.trace[conflict.earlier].location?.fileID.hasPrefix("Conformance/") == true)
            #expect(failure.trace[conflict.later].location?.fileID.hasPrefix("Conformance/") == true)
        }
    }

    // MARK: Deadlocks

    @Test("a lock-order deadlock: each thread waits for the step where the other took the mutex it wants")
    func lockOrderDeadlock() throws {
        let failure = try Self.failure("picture lock-order inversion", HarnessScenarios.lockOrderInversion)
        guard case .deadlock(_, let cycle) = failure.reason else {
            Issue.record("expected a deadlock, got \(failure.reason)")
            return
        }
        #expect(Set(try #require(cycle)) == [1, 2])
        let picture = failure.picture
        let cycleEdges = picture.waitsFor.filter(\.inCycle)
        #expect(Set(cycleEdges.map { [$0.waiter, $0.holder] }) == [[.thread(1), .thread(2)], [.thread(2), .thread(1)]])
        for edge in cycleEdges {
            let acquired = try #require(edge.acquired, "\(edge)")
            let step = failure.trace[acquired]
            #expect(Lane(of: step) == edge.holder)
            #expect(step.kind == .lock)
            #expect(step.target?.object == edge.resource)
        }
        #expect(Set(cycleEdges.compactMap(\.resource)) == [SharedObject(.mutex, 1), SharedObject(.mutex, 2)])
        let joins = picture.waitsFor.filter { !$0.inCycle }
        #expect(
            joins == [
                FailurePicture.WaitEdge(
                    waiter: .thread(0), holder: .thread(1), resource: nil, acquired: nil, inCycle: false)
            ])
        #expect(picture.notes.map(\.lane) == [.thread(0), .thread(1), .thread(2)])
        #expect(picture.notes.allSatisfy { $0.kind == .blocked && $0.text.hasPrefix("waits to ") })
    }

    @Test("a cycle the waits do not name a lane for is still drawn, from the cycle alone")
    func cycleWithoutWaits() {
        let failure = Self.synthetic(
            [(1, .lock, .object(SharedObject(.mutex, 1))), (2, .lock, .object(SharedObject(.mutex, 2)))],
            reason: .deadlock(waits: [], cycle: [1, 2])
        )
        #expect(
            failure.picture.waitsFor == [
                FailurePicture.WaitEdge(
                    waiter: .thread(1), holder: .thread(2), resource: nil, acquired: nil, inCycle: true),
                FailurePicture.WaitEdge(
                    waiter: .thread(2), holder: .thread(1), resource: nil, acquired: nil, inCycle: true)
            ])
    }

    @Test("the arrows come from the waits' values: words in a wait that name a lane draw nothing")
    func arrowsFromValues() {
        let inFunctionT2 = BlockedTask(
            task: 1, name: nil, waitsAt: CodePlace(file: "Peer.swift", line: 3, function: "T2"), startedIn: nil)
        let waits: [Wait] = [
            .thread(ThreadWait(thread: 1, reason: .lock(mutex: SharedObject(.mutex, 1), holder: 2))),
            .thread(ThreadWait(thread: 2, reason: .lock(mutex: SharedObject(.mutex, 2), holder: nil))),
            .task(inFunctionT2)
        ]
        #expect("\(Wait.task(inFunctionT2))".contains("T2"), "the task's words name lane T2")
        let failure = Self.synthetic(
            [(2, .lock, .object(SharedObject(.mutex, 1))), (1, .start, nil)],
            reason: .threadsStillRunning(waits: waits)
        )
        #expect(
            failure.picture.waitsFor == [
                FailurePicture.WaitEdge(
                    waiter: .thread(1), holder: .thread(2), resource: SharedObject(.mutex, 1), acquired: 0,
                    inCycle: false)
            ])
        #expect(failure.picture.notes.map(\.lane) == [.thread(1), .thread(2), .task(1)])
    }

    // MARK: The page

    @Test("the page draws one line per conflict and one arrow per wait, in their styles")
    func rendering() throws {
        let lost = try Self.failure("picture lost update", HarnessScenarios.lostUpdate).picture
        let lostPage = lost.html
        #expect(lostPage.occurrences(of: "<path class=\"l0\"") == lost.conflicts.count)
        for conflict in lost.conflicts {
            #expect(lostPage.contains("id=\"s\(conflict.earlier)\""))
            #expect(lostPage.contains("id=\"s\(conflict.later)\""))
        }
        #expect(lostPage.contains("<b>T0</b> check failed at Conformance/HarnessScenarios.swift:"))
        #expect(!lostPage.contains("<details"), "a short trace collapses nothing")

        let deadlock = try Self.failure("picture lock-order inversion", HarnessScenarios.lockOrderInversion).picture
        let deadlockPage = deadlock.html
        #expect(deadlockPage.occurrences(of: "<path class=\"cyc\"") == 2)
        #expect(deadlockPage.occurrences(of: "<path class=\"oth\"") == 1)
        #expect(deadlockPage.occurrences(of: "<a class=\"hold\">held</a>") == 2)
        #expect(deadlockPage.contains("<b>T1</b> waits to lock mutex#"))
    }

    @Test("every user string is escaped: a scenario named <script> and a message with markup stay text")
    func escaping() throws {
        let name = "<script>alert(\"picture\")</script> & 'friends'"
        let failure = try Self.failure(name, options: ExplorationOptions(schedules: 1)) { _ in
            Harness.check(false, "<img src=x onerror=alert(1)>")
        }
        let page = failure.picture.html
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img"))
        #expect(page.contains("&lt;script&gt;alert(&quot;picture&quot;)&lt;/script&gt; &amp; &#39;friends&#39;"))
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(HTMLText.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;")
    }

    @Test("the page is self-contained: no script, no external asset, links only within the page")
    func selfContained() throws {
        let pages = [
            try Self.failure("picture lost update", HarnessScenarios.lostUpdate).picture.html,
            try Self.failure("picture lock-order inversion", HarnessScenarios.lockOrderInversion).picture.html,
            try Self.failure("picture lost wakeup", HarnessScenarios.lostWakeup).picture.html
        ]
        for page in pages {
            for forbidden in ["<script", "<link", "<img", "<iframe", "src=", "@import", "http:", "https:", "file:"] {
                #expect(!page.contains(forbidden), "the page contains \(forbidden)")
            }
            #expect(page.occurrences(of: "url(") == page.occurrences(of: "url(#"))
            #expect(page.occurrences(of: "href=\"") == page.occurrences(of: "href=\"#"))
        }
    }

    /// A thread that spins on a flag nobody sets, until the step bound.
    @Sendable static func spin(_ scenario: Scenario) {
        let flag = SeamAtomic(false)
        while !flag.load() { Seam.yield() }
    }

    /// Three threads take one mutex 330 times each: about 2,000 steps, a conflict at every
    /// handoff, and a check that fails at the end.
    @Sendable static func busyMutex(_ scenario: Scenario) {
        let mutex = SeamMutex()
        let counter = UncheckedBox(0)
        for _ in 0..<3 {
            scenario.spawn { for _ in 0..<330 { mutex.withLock { counter.value += 1 } } }
        }
        scenario.joinAll()
        Harness.check(counter.value < 990, "the counter reached \(counter.value)")
    }

    @Test(
        "2,000 steps: the page grows linearly, collapses what has nothing drawn, and shows the end",
        .longSingleThreadedWork)
    func longTraces() throws {
        func spinning(_ steps: Int) throws -> (failure: HarnessFailure, page: String) {
            let failure = try Self.failure(
                "picture spin \(steps)", options: ExplorationOptions(schedules: 1, maxSteps: steps), Self.spin)
            return (failure, failure.picture.html)
        }
        let short = try spinning(2_000)
        let long = try spinning(4_000)
        #expect(short.failure.trace.count == 2_000)
        // Measured: 330,882 bytes for 2,000 steps (165 a step), all but the last 12 collapsed.
        #expect(short.page.utf8.count < 2_000 * 200)
        let growth = Double(long.page.utf8.count) / Double(short.page.utf8.count)
        #expect(growth > 1.9 && growth < 2.1, "doubling the trace multiplied the page by \(growth)")
        #expect(short.page.occurrences(of: "<details>") == 1)
        #expect(short.page.contains("steps 0–1987: 1988 steps without a conflict"))
        #expect(short.page.contains("<b>1999</b>"))

        let busy = try Self.failure(
            "picture busy mutex", options: ExplorationOptions(schedules: 1, seed: 11), Self.busyMutex)
        let page = busy.picture.html
        #expect(busy.trace.count > 1_900)
        // Measured: 442,580 bytes for 1,993 steps with 641 conflicts (222 a step).
        #expect(page.utf8.count < busy.trace.count * 300)
        #expect(page.occurrences(of: "<path class=\"l0\"") == busy.picture.conflicts.count)
    }
}

extension String {
    /// How many times `part` occurs, not overlapping.
    func occurrences(of part: String) -> Int {
        components(separatedBy: part).count - 1
    }
}
