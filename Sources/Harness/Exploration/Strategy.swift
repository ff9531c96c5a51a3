/// How an exploration picks schedules.
public struct Strategy: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        case random
        case pct(depth: Int)
        case exhaustive(preemptionBound: Int)
        case pos
        case surw
        case guided
        case portfolio([Strategy])
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
        precondition(
            depthRange.contains(depth),
            "PCT needs a depth from \(depthRange.lowerBound) to \(depthRange.upperBound), not \(depth)")
        return Strategy(kind: .pct(depth: depth))
    }

    /// Every schedule with at most `preemptionBound` preemptions (default 2), fewest
    /// preemptions first; a spurious wake-up counts as a preemption, and every order of
    /// queued jobs is enumerated. The report says `exhausted` only when all of them ran.
    /// For small scenarios. `preemptionBound` lies in ``preemptionBoundRange``.
    public static func exhaustive(preemptionBound: Int = 2) -> Strategy {
        precondition(
            preemptionBoundRange.contains(preemptionBound),
            "the preemption bound must lie from \(preemptionBoundRange.lowerBound) to "
                + "\(preemptionBoundRange.upperBound), not \(preemptionBound)"
        )
        return Strategy(kind: .exhaustive(preemptionBound: preemptionBound))
    }

    /// Partial-order sampling (Yuan, Yang and Gu, CAV 2018): random priorities for pending
    /// operations and jobs, the highest runs, and operations that race with one that ran
    /// get fresh priorities, so orders of conflicting operations are sampled close to
    /// uniformly. Probabilistic: no bound on how soon a bug is found, and never exhausted.
    public static let pos = Strategy(kind: .pos)

    /// Selectively uniform random walk (Zhao, Wolff, Mathur and Roychoudhury, ASPLOS 2025):
    /// each thread, task or job is picked with probability proportional to the operations
    /// on shared state it has left, estimated from earlier executions, so interleavings of
    /// those operations are sampled close to uniformly. Probabilistic, never exhausted.
    public static let surw = Strategy(kind: .surw)

    /// Feedback-guided sampling, after Fray (Li, Wang, Huang and Bell, NSDI 2026): schedules
    /// whose executions reached an interleaving no earlier one did (by fingerprint) are kept,
    /// and most executions mutate a kept one at a few decisions instead of starting blind.
    /// Probabilistic, never exhausted; the same seed runs the same schedules.
    public static let guided = Strategy(kind: .guided)

    /// Random walk, PCT (depth 3), POS and SURW in turn, one schedule each, each seeded
    /// from the campaign's seed and its place: which finds a bug soonest depends on the
    /// bug, and the portfolio needs at most four times the schedules of the best of them
    /// (each keeps its own state across its turns). Never exhausted. The fuzz campaign's
    /// default.
    public static let portfolio = Strategy(kind: .portfolio([.random, .pct(depth: 3), .pos, .surw]))

    /// The depths PCT accepts: each draws `depth - 1` change points, and bugs deeper than
    /// a few preemptions are found by chance only.
    public static let depthRange: ClosedRange<Int> = 1...16
    /// The preemption bounds exhaustive search accepts: the space grows exponentially with it.
    public static let preemptionBoundRange: ClosedRange<Int> = 0...16

    /// The spellings ``init(parsing:setting:)`` reads.
    static let spellings = "random, pct[:DEPTH], exhaustive[:BOUND], pos, surw, guided or portfolio"

    /// Reads `random`, `pct`, `pct:DEPTH`, `exhaustive`, `exhaustive:BOUND`, `pos`, `surw`,
    /// `guided` or `portfolio`; an error
    /// names `setting` (where the text came from) and says precisely what is wrong.
    public init(parsing text: String, setting: String = "strategy") throws(HarnessConfigurationError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        func parameter(_ name: String, default value: Int, in range: ClosedRange<Int>) throws(HarnessConfigurationError)
            -> Int
        {
            guard parts.count == 2 else { return value }
            guard let number = Int(parts[1]), range.contains(number) else {
                throw .invalid(
                    setting: setting,
                    value: text,
                    expected:
                        "\(parts[0]):\(name) with \(name) a whole number from \(range.lowerBound) to "
                        + "\(range.upperBound), not '\(parts[1])'"
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
        case "pos" where parts.count == 1:
            kind = .pos
        case "surw" where parts.count == 1:
            kind = .surw
        case "guided" where parts.count == 1:
            kind = .guided
        case "portfolio" where parts.count == 1:
            kind = Self.portfolio.kind
        case "random", "pos", "surw", "guided", "portfolio":
            throw .invalid(setting: setting, value: text, expected: "\(parts[0]) without a parameter")
        default:
            throw .invalid(setting: setting, value: text, expected: "\(Self.spellings), not the strategy '\(parts[0])'")
        }
    }

    public var description: String {
        switch kind {
        case .random: "random"
        case .pct(let depth): "pct:\(depth)"
        case .exhaustive(let bound): "exhaustive:\(bound)"
        case .pos: "pos"
        case .surw: "surw"
        case .guided: "guided"
        case .portfolio: "portfolio"
        }
    }

    /// Whether each schedule is a function of the seed and its index alone: random walk and
    /// POS start every execution afresh, so their schedules can run on several workers
    /// (``ExplorationOptions/workers``) or be split between shards
    /// (``ExplorationOptions/shard``) and come out the same. PCT (its estimate of an
    /// execution's decisions), SURW (its counts), guided sampling (its kept schedules),
    /// exhaustive search (its place in the tree) and the portfolio (its members') carry state
    /// from one execution to the next, so each schedule depends on all before it.
    public var schedulesAreIndependent: Bool {
        switch kind {
        case .random, .pos: true
        case .pct, .exhaustive, .surw, .guided, .portfolio: false
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
        case .pos: PartialOrderSampling(seed: seed)
        case .surw: SelectivelyUniformRandomWalk(seed: seed)
        case .guided: FeedbackGuided(seed: seed)
        case .portfolio(let members):
            Portfolio(
                members.enumerated().map { position, member in
                    member.makeScheduler(seed: SplitMix64.seed(seed, execution: position))
                })
        }
    }
}
