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
    /// that needs `depth - 1` preemptions with a probability bounded from below.
    public static func pct(depth: Int = 3) -> Strategy {
        precondition(depth >= 1, "PCT needs a depth of at least 1, not \(depth)")
        return Strategy(kind: .pct(depth: depth))
    }

    /// Every schedule with at most `preemptionBound` preemptions (default 2), depth first;
    /// the report says when all were covered. For small scenarios.
    public static func exhaustive(preemptionBound: Int = 2) -> Strategy {
        precondition(preemptionBound >= 0, "the preemption bound cannot be negative (\(preemptionBound))")
        return Strategy(kind: .exhaustive(preemptionBound: preemptionBound))
    }

    /// Reads `random`, `pct`, `pct:DEPTH`, `exhaustive` or `exhaustive:BOUND`.
    public init(parsing text: String) throws(HarnessConfigurationError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        func parameter(default value: Int, minimum: Int) throws(HarnessConfigurationError) -> Int {
            guard parts.count == 2 else { return value }
            guard let number = Int(parts[1]), number >= minimum else {
                throw .invalid(variable: "strategy", value: text, expected: "a whole number of at least \(minimum) after ':'")
            }
            return number
        }
        switch parts.first?.lowercased() {
        case "random" where parts.count == 1:
            kind = .random
        case "pct":
            kind = .pct(depth: try parameter(default: 3, minimum: 1))
        case "exhaustive", "dfs":
            kind = .exhaustive(preemptionBound: try parameter(default: 2, minimum: 0))
        default:
            throw .invalid(variable: "strategy", value: text, expected: "random, pct[:DEPTH] or exhaustive[:BOUND]")
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

    func makeScheduler(seed: UInt64) -> any SchedulingStrategy {
        switch kind {
        case .random: RandomWalk(seed: seed)
        case .pct(let depth): PriorityChangePoints(seed: seed, depth: depth)
        case .exhaustive(let bound): BoundedExhaustive(preemptionBound: bound)
        }
    }
}
