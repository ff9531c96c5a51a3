import Fixtures
import Harness
import Primitives
import Testing

@Suite("Generated scenarios: explored, checked, shrunk, replayed")
struct LinearizabilityTestTests {
    static let small = LinearizabilityOptions(scenarios: 4, schedulesPerScenario: 40, seed: 3)

    @Test("a correct queue passes every generated scenario; the report counts scenarios and schedules")
    func correctQueuePasses() throws {
        let report = try QueueOperations.test { LockedQueue<Int>() }.run("locked queue", options: Self.small)
        #expect(report.failure == nil)
        #expect(report.scenariosRun == 4)
        #expect(report.schedulesRun == 160)
        #expect(report.seed == 3)
    }

    @Test("a dequeue split in two critical sections is caught and shrunk to two threads and three calls or fewer")
    func splitDequeueShrinks() throws {
        let report = try QueueOperations.test { SplitDequeueQueue() }.run(
            "split dequeue", options: LinearizabilityOptions(seed: 1))
        let failure = try #require(report.failure)
        #expect(failure.table.columns.count == 2)
        #expect(
            failure.table.initial.count + failure.table.columns.reduce(0) { $0 + $1.cells.count }
                + failure.table.final.count <= 3)
        #expect(failure.shrinkSteps > 0)
        #expect(failure.reason.hasPrefix("not linearizable (unique-value queue check): "))
        #expect(failure.reason.contains("which was enqueued only once"))
        #expect(failure.token.generatedScenario == failure.scenarioCode)
        #expect(failure.failure.scenario == "split dequeue [scenario \(failure.scenarioCode)]")
        #expect(failure.message.split(separator: "\n").count <= GeneratedScenarioFailure.maxLines)
    }

    @Test("the token replays scenario and schedule together: the same failure, step for step")
    func tokenReplays() throws {
        let test = QueueOperations.test { SplitDequeueQueue() }
        let found = try #require(try test.run("split dequeue", options: LinearizabilityOptions(seed: 1)).failure)
        let replay = try ReplayToken(parsing: found.token.description)
        let replayed = try #require(
            try test.run("split dequeue", options: LinearizabilityOptions(replay: replay)).failure)
        #expect(replayed.replayed)
        #expect(replayed.failure.reproduction == .exact)
        #expect(replayed.failure.reason == found.failure.reason)
        #expect(replayed.failure.trace == found.failure.trace)
        #expect(replayed.table == found.table)
        #expect(replayed.scenarioCode == found.scenarioCode)
    }

    @Test("actor methods are operations too: a reentrant deposit loses money and is caught; a plain one passes")
    func actors() throws {
        let reentrant = try accountTest(reentrant: true).run(
            "reentrant account", options: LinearizabilityOptions(seed: 1))
        let failure = try #require(reentrant.failure)
        #expect(failure.table.columns.map(\.lane).allSatisfy { $0.hasPrefix("client ") })
        #expect(failure.reason.hasPrefix("not linearizable (found by search"))
        let plain = try accountTest(reentrant: false).run("plain account", options: Self.small)
        #expect(plain.failure == nil)
    }

    @Test("an operation that throws has its error as its result, and is checked like any other")
    func throwingOperations() throws {
        let report = try boundedStackTest().run("bounded stack", options: Self.small)
        #expect(report.failure == nil)
    }

    @Test("an error the model's results cannot hold fails the execution, naming the call and the type expected")
    func foreignError() throws {
        let report = try boundedStackTest(throwsUnexpected: true).run("unexpected error", options: Self.small)
        let failure = try #require(report.failure)
        #expect(
            failure.reason
                == "push(3) threw unexpected, which is not a StackError: the model's results have no place for it")
    }

    @Test("a model that is not deterministic is named, with the operation and both answers")
    func nondeterministicModel() throws {
        let test = LinearizabilityTest(model: ForgetfulModel()) { Nothing() }
            .operation(.tick) { _ in 1 }
        let report = try test.run("forgetful model", options: Self.small)
        let failure = try #require(report.failure)
        #expect(failure.reason.hasPrefix("the model is not deterministic: applying tick() (the call tick() → 1"))
        #expect(failure.reason.contains("the first time and"))
    }

    @Test("tasks can run synchronous operations: clients(.tasks)")
    func tasksForSynchronousCalls() throws {
        let report = try QueueOperations.test { SplitDequeueQueue() }.clients(.tasks).run(
            "split dequeue on tasks", options: LinearizabilityOptions(seed: 2))
        let failure = try #require(report.failure)
        #expect(
            failure.table.columns.map(\.lane) == ["client 1", "client 2"].prefix(failure.table.columns.count).map { $0 }
        )
    }

    @Test("shrinking can be turned off: the failing scenario is reported as generated")
    func noShrinking() throws {
        var options = LinearizabilityOptions(seed: 1)
        options.shrinkCandidates = 0
        let failure = try #require(
            try QueueOperations.test { SplitDequeueQueue() }.run("split dequeue", options: options).failure)
        #expect(failure.shrinkSteps == 0)
        #expect(failure.shape == failure.generatedShape)
        #expect(!failure.scenarioCode.contains("-"))
    }
}

@Suite("Generated scenarios: the report")
struct GeneratedScenarioReportTests {
    @Test("the smallest scenario renders as the initial part, one column per thread, and the final part")
    func table() throws {
        let failure = try #require(
            try QueueOperations.test { SplitDequeueQueue() }.run(
                "split dequeue", options: LinearizabilityOptions(seed: 1)
            ).failure)
        #expect(
            failure.table.lines == [
                "initial (T0): enqueue(1) → enqueued",
                "parallel:",
                "  T1              T2",
                "  dequeue() → 1   dequeue() → 1",
                "final (T0): none"
            ])
        let lines = failure.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "generated scenario \(failure.scenarioCode) of 'split dequeue' fails")
        #expect(
            lines[1].hasPrefix(
                "smallest failing scenario: 2 threads, 3 calls (1 initial, 2 parallel, 0 final); shrunk in "))
        #expect(Array(lines[2...6]) == failure.table.lines)
        #expect(lines[7] == "why: " + failure.reason)
        #expect(lines[8] == "replay: " + failure.failure.replayCommand)
        // The steps of the code under test, with the trace's length when the harness's own are more.
        let steps = failure.failure.shownStepCount
        #expect(
            lines[9].hasPrefix("schedule (\(steps) steps (\(failure.failure.trace.count) with the harness's own), "))
        #expect(failure.failure.replayInCode.hasPrefix("LinearizabilityOptions(replay: "))
    }

    @Test("an unshrunk scenario of many calls still reports in 40 lines; the attachment has the whole table")
    func longScenario() throws {
        var options = LinearizabilityOptions(seed: 1, threads: 3...3, operationsPerThread: 20...20)
        options.shrinkCandidates = 0
        let failure = try #require(
            try QueueOperations.test { SplitDequeueQueue() }.run("long split dequeue", options: options).failure)
        #expect(
            failure.message.split(separator: "\n", omittingEmptySubsequences: false).count
                <= GeneratedScenarioFailure.maxLines)
        #expect(failure.message.contains("more lines in the attached report"))
        #expect(failure.fullReport.contains(failure.table.description))
    }

    @Test("a call that records several entries shows their results in one cell; tasks are named clients")
    func recordingCells() throws {
        let test = LimiterOperations.test(limit: 1) { BargingConcurrencyLimiter(concurrency: 1) }
        let failure = try #require(try test.run("barging limiter", options: LinearizabilityOptions(seed: 1)).failure)
        let cells = failure.table.columns.flatMap(\.cells)
        #expect(cells.contains { $0.hasPrefix("run(") && $0.hasSuffix(" → queued, admitted, left") })
        #expect(failure.table.columns.map(\.lane) == (1...failure.table.columns.count).map { "client \($0)" })
        #expect(failure.table.initialLane == "task initial")
        #expect(failure.message.split(separator: "\n").count <= GeneratedScenarioFailure.maxLines)
    }
}
