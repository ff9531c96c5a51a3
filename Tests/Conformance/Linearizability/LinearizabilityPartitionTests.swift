import Harness
import Testing

@Suite("Linearizability: partitioned models")
struct LinearizabilityPartitionTests {
    typealias Map = History<KeyValueModel.Operation, Int?>

    @Test("each key is checked on its own, and the order joins them in real time")
    func partitionsJoin() throws {
        let history = Map([
            call(0, .put("a", 1), nil, 0...3),
            call(1, .put("b", 2), nil, 1...2),
            call(1, .get("a"), 1, 4...5),
            call(0, .get("b"), 2, 4...6),
            call(2, .put("a", 3), 1, 5...8)
        ])
        let verdict = LinearizabilityChecker.check(history, model: KeyValueModel())
        #expect(verdict.method == .search)
        let order = try #require(verdict.order)
        #expect(history.isLinearization(order, model: KeyValueModel()))
        #expect(LinearizabilityChecker.check(history, model: UnpartitionedKeyValueModel()).isLinearizable)
    }

    @Test("a violation names the key whose calls have no order")
    func violationNamesKey() {
        let history = Map([
            call(0, .put("a", 1), nil, 0...1),
            call(1, .put("b", 2), nil, 0...1),
            call(0, .get("b"), 5, 2...3),
            call(1, .get("a"), 1, 2...3)
        ])
        let verdict = LinearizabilityChecker.check(history, model: KeyValueModel())
        #expect(
            verdict.violation
                == .noSequentialOrder(
                    SearchDeadEnd(
                        partition: "b", longestPrefix: [1], modelState: "map [(key: \"b\", value: 2)]",
                        blocked: [BlockedCall(entry: 2, modelAnswer: 2)]
                    )))
        #expect(!LinearizabilityChecker.check(history, model: UnpartitionedKeyValueModel()).isLinearizable)
    }

    @Test("a history with a call that touches every part is checked whole")
    func unkeyedCallChecksWhole() {
        let history = History<CountingMapModel.Operation, Int?>([
            call(0, .put("a", 1), nil, 0...1),
            call(1, .count, 2, 2...3)
        ])
        let verdict = LinearizabilityChecker.check(history, model: CountingMapModel())
        #expect(
            verdict.violation
                == .noSequentialOrder(
                    SearchDeadEnd(
                        partition: nil, longestPrefix: [0], modelState: "CountingMapModel(store: [\"a\": 1])",
                        blocked: [BlockedCall(entry: 1, modelAnswer: 1)]
                    )))
    }

    @Test("a 1,000-call map history of 8 clients is decided part by part")
    func longMapHistory() throws {
        var generator = HistoryGenerator(seed: 21)
        var store: [String: Int] = [:]
        var next = 0
        let history = generator.history(
            clients: 8,
            callsPerClient: 125,
            stopEarly: true,
            nextOperation: { generator in
                let key = "k\(generator.below(40))"
                next += 1
                return generator.chance(50) ? KeyValueModel.Operation.put(key, next) : .get(key)
            },
            implementation: { _, operation -> Int? in
                switch operation {
                case .put(let key, let value):
                    defer { store[key] = value }
                    return store[key]
                case .get(let key):
                    return store[key]
                }
            }
        )
        let verdict = LinearizabilityChecker.check(history, model: KeyValueModel())
        #expect(verdict.isLinearizable)
        #expect(history.isLinearization(try #require(verdict.order), model: KeyValueModel()))
    }
}

/// A map with a call that counts every key: it has no part of its own.
struct CountingMapModel: SequentialModel {
    enum Operation: Hashable {
        case put(String, Int)
        case count
    }

    var store: [String: Int] = [:]

    mutating func apply(_ operation: Operation) -> Int? {
        switch operation {
        case .put(let key, let value):
            defer { store[key] = value }
            return store[key]
        case .count:
            return store.count
        }
    }

    static func partitionKey(of operation: Operation) -> String? {
        if case .put(let key, _) = operation { return key }
        return nil
    }
}
