/// How an exploration picks schedules.
public struct Strategy: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        case random
        case pct(depth: Int)
        case exhaustive(preemptionBound: Int)
    }

    let kind: Kind

    init(kind: Kind) { self.kind = kind }

    /// At every scheduling point, a uniformly random runnable thread (and, rarely, a
    /// spurious wake-up of a condition waiter).
    public static let random = Strategy(kind: .random)

    /// Probabilistic concurrency testing with bug depth `depth` (default 3): finds a bug
    /// that needs `depth - 1` preemptions with a probability bounded from below. `depth`
    /// lies in ``depthRange``.
    public static func pct(depth: Int = 3) -> Strategy {
        precondition(depthRange.contains(depth), "PCT needs a depth from \(depthRange.lowerBound) to \(depthRange.upperBound), not \(depth)")
        return Strategy(kind: .pct(depth: depth))
    }

    /// Every schedule with at most `preemptionBound` preemptions (default 2), depth first;
    /// the report says when all were covered. For small scenarios. `preemptionBound` lies
    /// in ``preemptionBoundRange``.
    public static func exhaustive(preemptionBound: Int = 2) -> Strategy {
        precondition(
            preemptionBoundRange.contains(preemptionBound),
            "the preemption bound must lie from \(preemptionBoundRange.lowerBound) to \(preemptionBoundRange.upperBound), not \(preemptionBound)"
        )
        return Strategy(kind: .exhaustive(preemptionBound: preemptionBound))
    }

    /// The depths PCT accepts: each draws `depth - 1` change points, and bugs deeper than
    /// a few preemptions are found by chance only.
    public static let depthRange: ClosedRange<Int> = 1...16
    /// The preemption bounds exhaustive search accepts: the space grows exponentially with it.
    public static let preemptionBoundRange: ClosedRange<Int> = 0...16

    /// The spellings ``init(parsing:setting:)`` reads.
    static let spellings = "random, pct[:DEPTH] or exhaustive[:BOUND]"

    /// Reads `random`, `pct`, `pct:DEPTH`, `exhaustive` or `exhaustive:BOUND`; an error
    /// names `setting` (where the text came from) and says precisely what is wrong.
    public init(parsing text: String, setting: String = "strategy") throws(HarnessConfigurationError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        func parameter(_ name: String, default value: Int, in range: ClosedRange<Int>) throws(HarnessConfigurationError) -> Int {
            guard parts.count == 2 else { return value }
            guard let number = Int(parts[1]), range.contains(number) else {
                throw .invalid(
                    setting: setting,
                    value: text,
                    expected: "\(parts[0]):\(name) with \(name) a whole number from \(range.lowerBound) to \(range.upperBound), not '\(parts[1])'"
                )
            }
            return number
        }
        switch parts[0].lowercased() {
        case "random" where parts.count == 1:
            kind = .random
        case "pct":
            kind = .pct(depth: try parameter("DEPTH", default: 3, in: Self.depthRange))
        case "exhaustive", "dfs":
            kind = .exhaustive(preemptionBound: try parameter("BOUND", default: 2, in: Self.preemptionBoundRange))
        case "random":
            throw .invalid(setting: setting, value: text, expected: "random without a parameter")
        default:
            throw .invalid(setting: setting, value: text, expected: "\(Self.spellings), not the strategy '\(parts[0])'")
        }
    }

    public var description: String {
        switch kind {
        case .random: "random"
        case .pct(let depth): "pct:\(depth)"
        case .exhaustive(let bound): "exhaustive:\(bound)"
        }
    }

    /// The token-safe spelling (no '.').
    var tag: String { description.replacingOccurrences(of: ":", with: "-") }

    /// The strategy a token's tag names.
    init(tag: String) throws(HarnessConfigurationError) {
        try self.init(parsing: tag.replacingOccurrences(of: "-", with: ":"), setting: "the replay token's strategy")
    }

    func makeScheduler(seed: UInt64) -> any SchedulingStrategy {
        switch kind {
        case .random: RandomWalk(seed: seed)
        case .pct(let depth): PriorityChangePoints(seed: seed, depth: depth)
        case .exhaustive(let bound): BoundedExhaustive(preemptionBound: bound)
        }
    }
}
