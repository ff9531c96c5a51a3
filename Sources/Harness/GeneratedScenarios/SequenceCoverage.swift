/// How many shapes of operation sequences (``SequenceShape``: two or three calls on one
/// element, ordered or concurrent) a ``LinearizabilityTest``'s generated scenarios held, and
/// whether the last of them still brought new ones: when they did, more scenarios would
/// likely reach sequences none of these did, so the budget looks marginal for the operation
/// mix.
public struct SequenceCoverage: Sendable, Hashable {
    /// Distinct shapes among the scenarios generated.
    public let distinctShapes: Int
    /// Shapes first seen in the last tenth of the scenarios (at least the last one).
    public let newInLastTenth: Int

    /// Whether the last tenth of the scenarios still brought new shapes.
    public var isGrowing: Bool { newInLastTenth > 0 }
}

/// Counts the sequence shapes of a campaign's scenarios as they are generated.
struct SequenceCoverageCounter {
    private let lastTenthStart: Int
    private(set) var seen: Set<SequenceShape> = []
    private var scenarios = 0
    private var newInLastTenth = 0

    /// A counter for a campaign of at most `budget` scenarios.
    init(budget: Int) {
        lastTenthStart = budget - max(1, budget / 10)
    }

    /// How many of `shapes` were not seen yet.
    func novelty(of shapes: Set<SequenceShape>) -> Int {
        shapes.subtracting(seen).count
    }

    /// Notes the shapes of one more scenario.
    mutating func note(_ shapes: Set<SequenceShape>) {
        let new = novelty(of: shapes)
        seen.formUnion(shapes)
        if scenarios >= lastTenthStart { newInLastTenth += new }
        scenarios += 1
    }

    var summary: SequenceCoverage {
        SequenceCoverage(distinctShapes: seen.count, newInLastTenth: newInLastTenth)
    }
}
