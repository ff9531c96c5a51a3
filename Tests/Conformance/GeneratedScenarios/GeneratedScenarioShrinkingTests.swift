@testable import Harness
import Primitives
import Testing

/// A call for shrinking's candidates alone: an operation number and an argument from 0 to 9
/// that shrinks as ``Generator/int(in:)`` does.
private struct ToyCall: SimplifiableCall, Equatable, CustomStringConvertible {
    let operation: Int
    let value: Int?

    var argument: String? { value.map(String.init) }
    var description: String { "op\(operation)(\(value.map(String.init) ?? ""))" }

    func simplerCalls() -> [ToyCall] {
        guard let value else { return [] }
        return Generator.int(in: 0...9).simpler(than: value).map { ToyCall(operation: operation, value: $0) }
    }
}

private func push(_ value: Int) -> ToyCall { ToyCall(operation: 0, value: value) }
private let pop = ToyCall(operation: 1, value: nil)

@Suite("Generated scenarios: shrinking moves calls, drops threads and keeps values' meaning")
struct GeneratedScenarioShrinkingTests {
    @Test(
        "three threads of one call each offer two threads with a call moved, and calls moved out of the parallel part")
    func moves() {
        let scenario = GeneratedScenario(initial: [], parallel: [[push(1)], [push(2)], [pop]], final: [])
        let shapes = scenario.shrinkCandidates().map { "\($0.initial) \($0.parallel) \($0.final)" }
        #expect(shapes.contains("[] [[op0(1), op0(2)], [op1()]] []"))
        #expect(shapes.contains("[] [[op0(2)], [op1(), op0(1)]] []"))
        #expect(shapes.contains("[op0(1)] [[op0(2)], [op1()]] []"))
        #expect(shapes.contains("[] [[op0(1)], [op0(2)]] [op1()]"))
    }

    @Test("distinct values stay distinct, and equal ones are simplified together")
    func values() {
        let distinct = GeneratedScenario(initial: [push(3)], parallel: [[push(5)], [pop]], final: [])
        let sameShape = distinct.shrinkCandidates().filter {
            $0.initial.count == 1 && $0.parallel.map(\.count) == [1, 1] && $0.final.isEmpty
        }
        #expect(sameShape.count == 4)
        for candidate in sameShape {
            let values = (candidate.initial + candidate.parallel.flatMap { $0 }).compactMap(\.value)
            #expect(Set(values).count == 2, "\(candidate)")
        }
        #expect(distinct.simplerArguments().map { $0.initial } == [[push(0)], [push(2)], [push(3)], [push(3)]])
        let shared = GeneratedScenario(initial: [push(4)], parallel: [[ToyCall(operation: 2, value: 4)]], final: [])
        let simplified = shared.shrinkCandidates().filter { $0.callCount == 2 && $0.parallel.count == 1 }.map {
            ($0.initial + $0.parallel.flatMap { $0 }).compactMap(\.value)
        }
        #expect(simplified == [[0, 0], [2, 2], [3, 3]])
    }

    @Test("the schedule budget of shrink candidates is twice what the failures needed, at least the configured one")
    func budget() {
        var budget = ShrinkBudget(configured: 100, needed: 30)
        #expect(budget.schedules == 100)
        budget.noteFailure(needed: 80)
        #expect(budget.schedules == 160)
        budget.noteFailure(needed: 10)
        #expect(budget.schedules == 160)
        budget.noteFailure(needed: Int.max)
        #expect(budget.schedules == ExplorationOptions.Limits.schedules.upperBound)
    }

    @Test("the stale-cache set shrinks to its four calls, and no call of them can go: each removal passes")
    func noRemovableCall() throws {
        let test = staleCacheSetTest()
        let failure = try #require(try test.run("stale cache set", options: LinearizabilityOptions(seed: 1)).failure)
        let code = try #require(ScenarioCode(parsing: failure.scenarioCode))
        let shrunk = try test.regenerate(code, options: LinearizabilityOptions())
        #expect(shrunk.callCount == 4)
        let removals = shrunk.shrinkCandidates().filter { $0.callCount == shrunk.callCount - 1 }
        #expect(removals.count == 4)
        for candidate in removals {
            let options = ExplorationOptions(strategy: .exhaustive(preemptionBound: 3), schedules: 20_000, seed: 1)
            let report = try Harness.run(
                "stale cache set without a call", options: options,
                test.body(for: candidate, checker: LinearizabilityChecker()))
            #expect(report.failure == nil, "\(candidate.callCount) calls")
        }
    }

    @Test("a failure found among distinct values shrinks to distinct values: the unique-value check still applies")
    func distinctValuesKept() throws {
        var checked = 0
        for seed in UInt64(1)...1 {
            let options = LinearizabilityOptions(seed: seed)
            guard let failure = try spreadQueueTest.run("copying queue", options: options).failure else { continue }
            let code = try #require(ScenarioCode(parsing: failure.scenarioCode))
            let generated = try spreadQueueTest.regenerate(ScenarioCode(seed: code.seed), options: options)
            let enqueued = (generated.initial + generated.parallel.flatMap { $0 } + generated.final).compactMap(
                \.argument)
            try #require(Set(enqueued).count == enqueued.count)
            checked += 1
            let shrunk = try spreadQueueTest.regenerate(code, options: options)
            let kept = (shrunk.initial + shrunk.parallel.flatMap { $0 } + shrunk.final).compactMap(\.argument)
            #expect(Set(kept).count == kept.count, "\(kept)")
            #expect(failure.reason.hasPrefix("not linearizable (unique-value queue check)"), "\(failure.reason)")
        }
        #expect(checked > 0)
    }
}

/// A queue whose enqueue copies the elements, appends, and writes the copy back in a second
/// critical section: two enqueues at once lose one, whether their values are equal or not.
private final class CopyingQueue: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var elements: [Int] = []

    func enqueue(_ value: Int) {
        var copy = mutex.withLock { elements }
        copy.append(value)
        mutex.withLock { elements = copy }
    }

    func dequeue() -> Int? {
        mutex.withLock { elements.isEmpty ? nil : elements.removeFirst() }
    }
}

/// Enqueues of values spread over 1 to 1,000,000, which never recur in practice, but which
/// shrink toward 1 as ``Generator/int(in:)``'s do, on a ``CopyingQueue``: shrinking each
/// value on its own would make them all 1, and the lost enqueue would still show.
private let spreadQueueTest = LinearizabilityTest(model: QueueModel<Int>()) { CopyingQueue() }
    .operation(QueueOperation.enqueue, spread) { queue, value in
        queue.enqueue(value)
        return .enqueued
    }
    .operation(.dequeue) { queue in queue.dequeue().map(QueueResult.dequeued) ?? .empty }

private let spread = Generator<Int>("spread", shrink: Generator.int(in: 1...1_000_000).simpler(than:)) { random in
    Int.random(in: 1...1_000_000, using: &random)
}
