/// A call as generation and shrinking see it: which operation, on which element.
protocol ShapedCall: Sendable {
    /// The operation's place among the test's operations.
    var operation: Int { get }
    /// Its argument in words, `nil` for an operation without one (which touches every element).
    var argument: String? { get }
    /// Whether it may wait for other calls, so that it belongs in the parallel part.
    var isBlocking: Bool { get }
}

extension ShapedCall {
    /// Calls wait for no other call unless they say so.
    var isBlocking: Bool { false }
}

extension LinearizabilityTest.Call: ShapedCall {}

/// The shape of a short operation sequence on one element: two or three calls, each ordered
/// before the next by the scenario (`before`) or running at once with it (`concurrent`).
/// `insert(5)` alone, then `remove(5)` at once with `insert(5)` is the shape
/// `[insert, before, remove, concurrent, insert]`.
struct SequenceShape: Hashable, Sendable {
    /// Operations and relations, alternating: operation, relation, operation(, relation, operation).
    let codes: [Int]

    /// How one call relates to the next in a shape.
    enum Relation: Int {
        case before = -1
        case concurrent = -2
    }
}

extension GeneratedScenario where Call: ShapedCall {
    /// Where a call sits, for ordering calls by real time.
    private enum Position {
        case initial(Int)
        case parallel(client: Int, Int)
        case final(Int)

        /// How a call here relates to one at `other`: before it, at once with it, or neither
        /// (after it, or the same call).
        func relation(to other: Position) -> SequenceShape.Relation? {
            switch (self, other) {
            case (.initial(let a), .initial(let b)), (.final(let a), .final(let b)):
                a < b ? .before : nil
            case (.initial, _), (.parallel, .final):
                .before
            case (.parallel(let c, let a), .parallel(let d, let b)):
                c != d ? .concurrent : a < b ? .before : nil
            case (.parallel, .initial), (.final, _):
                nil
            }
        }
    }

    /// Every shape of two and three calls on one element the scenario holds. Calls with the
    /// same argument touch the same element; a call without an argument touches every one.
    var sequenceShapes: Set<SequenceShape> {
        var calls: [(call: Call, position: Position)] = initial.enumerated().map { ($1, .initial($0)) }
        for (client, clientCalls) in parallel.enumerated() {
            calls += clientCalls.enumerated().map { ($1, .parallel(client: client, $0)) }
        }
        calls += final.enumerated().map { ($1, .final($0)) }
        let elements = Set(calls.compactMap(\.call.argument))
        var groups = elements.map { element in calls.filter { $0.call.argument == nil || $0.call.argument == element } }
        if elements.isEmpty { groups = [calls] }
        var shapes: Set<SequenceShape> = []
        for group in groups {
            for first in group {
                for second in group {
                    guard let relation = first.position.relation(to: second.position) else { continue }
                    let pair = [first.call.operation, relation.rawValue, second.call.operation]
                    shapes.insert(SequenceShape(codes: pair))
                    for third in group {
                        guard let next = second.position.relation(to: third.position) else { continue }
                        shapes.insert(SequenceShape(codes: pair + [next.rawValue, third.call.operation]))
                    }
                }
            }
        }
        return shapes
    }
}
