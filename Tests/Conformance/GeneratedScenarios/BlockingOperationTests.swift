@testable import Harness
import Primitives
import Testing

@Suite("Generated scenarios: blocking operations, and calls that wait for good")
struct BlockingOperationTests {
    @Test("a queue that signals one waiter of two kinds loses a wake-up; the blocked call is found and shrunk")
    func lostWakeUpFound() throws {
        let report = try oneConditionQueueTest(wakesAll: false).run(
            "one-condition queue, signal", options: LinearizabilityOptions(seed: 1))
        let failure = try #require(report.failure)
        #expect(failure.reason.contains("a lost wake-up"))
        #expect(failure.reason.contains("blocked)"))
        #expect(failure.table.columns.flatMap(\.cells).contains { $0.hasSuffix("(blocked)") })
        #expect(failure.table.initial.isEmpty && failure.table.final.isEmpty)
        #expect(failure.table.columns.count == 3)
        #expect(failure.message.split(separator: "\n").count <= GeneratedScenarioFailure.maxLines)
        let replay = try ReplayToken(parsing: failure.token.description)
        let replayed = try #require(
            try oneConditionQueueTest(wakesAll: false).run(
                "one-condition queue, signal", options: LinearizabilityOptions(replay: replay)
            ).failure)
        #expect(replayed.failure.reproduction == .exact)
        #expect(replayed.reason == failure.reason)
    }

    @Test("the same queue broadcasting passes: calls left waiting at the end are justified by the model")
    func broadcastPasses() throws {
        let report = try oneConditionQueueTest(wakesAll: true).run(
            "one-condition queue, broadcast", options: LinearizabilityOptions(seed: 1))
        #expect(report.failure == nil)
        #expect(report.scenariosRun == 10)
    }

    @Test("the initial and final parts draw only operations that do not block, and shrinking keeps blocking calls")
    func blockingCallsStayParallel() throws {
        let test = LinearizabilityTest(model: QueueModel<Int>()) { InertQueue() }
            .operation(QueueOperation.enqueue, .int(in: 1...3)) { _, _ in .enqueued }
            .blockingOperation(.dequeue) { _ in .empty }
        let options = LinearizabilityOptions(initialOperations: 3...3, finalOperations: 3...3)
        var parallelBlockingCalls = 0
        for seed in UInt64(0)..<20 {
            let scenario = try test.generate(seed: seed, options: options)
            #expect(scenario.initial.count == 3 && scenario.final.count == 3)
            #expect((scenario.initial + scenario.final).allSatisfy { !$0.isBlocking })
            parallelBlockingCalls += scenario.parallel.joined().count(where: \.isBlocking)
            for candidate in scenario.shrinkCandidates() {
                #expect((candidate.initial + candidate.final).allSatisfy { !$0.isBlocking })
            }
        }
        #expect(parallelBlockingCalls > 0)
    }

    @Test("synchronous blocking operations need threads: with tasks as clients the test does not run, and says why")
    func blockingOnTasks() {
        #expect(throws: LinearizabilityTestError.blockingOperationsOnTasks) {
            try oneConditionQueueTest(wakesAll: true).clients(.tasks).run(
                "blocking on tasks", options: LinearizabilityOptions(scenarios: 1))
        }
        #expect("\(LinearizabilityTestError.blockingOperationsOnTasks)".contains("clients(.threads)"))
    }

    /// Scenarios of three tasks making one or two calls each: enough for two takers and a
    /// putter, small enough to explore tasks quickly.
    private static let smallAsync = LinearizabilityOptions(seed: 1, threads: 3...3, operationsPerThread: 1...2)

    @Test("an actor buffer resuming one waiter of two kinds loses a wake-up: the suspended call is found, replayed")
    func asyncLostWakeUpFound() throws {
        let report = try continuationBufferTest(resumesAll: false).run(
            "continuation buffer, one", options: Self.smallAsync)
        let failure = try #require(report.failure)
        #expect(failure.reason.contains("a lost wake-up"))
        #expect(failure.table.columns.flatMap(\.cells).contains { $0.hasSuffix("(blocked)") })
        #expect(failure.table.columns.allSatisfy { $0.lane.hasPrefix("client ") })
        var replaying = Self.smallAsync
        replaying.exploration.replay = try ReplayToken(parsing: failure.token.description)
        let replayed = try #require(
            try continuationBufferTest(resumesAll: false).run("continuation buffer, one", options: replaying).failure)
        #expect(replayed.failure.reproduction == .exact)
        #expect(replayed.reason == failure.reason)
    }

    @Test("the same actor buffer resuming every waiter passes: calls suspended at the end are justified")
    func asyncResumeAllPasses() throws {
        let report = try continuationBufferTest(resumesAll: true).run(
            "continuation buffer, all", options: Self.smallAsync)
        #expect(report.failure == nil)
        #expect(report.scenariosRun == 10)
    }

    @Test("stress tells blocked calls on threads only: async blocking operations are refused under stress, saying why")
    func asyncBlockingUnderStress() async {
        await #expect(throws: LinearizabilityTestError.blockingTasksUnderStress) {
            try await continuationBufferTest(resumesAll: true).runStress(
                "continuation buffer", options: LinearizabilityStressOptions())
        }
        #expect("\(LinearizabilityTestError.blockingTasksUnderStress)".contains("check()"))
    }
}

/// A queue stand-in for generation: its operations do nothing.
private final class InertQueue: Sendable {}
