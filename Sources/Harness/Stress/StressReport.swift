/// Why a stress run stopped.
public enum StressStop: Sendable, Hashable {
    /// It ran all its iterations.
    case iterations
    /// Its time budget ran out first: with a cap (``StressOptions/maxTimeBudget``), a whole
    /// budget passed without a new outcome.
    case timeBudget
    /// It reached the cap on its time budget (``StressOptions/maxTimeBudget``) while new
    /// outcomes still appeared within the last budget: a longer run may see more.
    case timeCap
    /// An iteration hung: its threads are left behind, blocked.
    case hang
    /// The iterations left so many threads behind that the process would soon be unable to
    /// start more.
    case threadLeak
}

/// What a stress run saw: the histogram of its outcomes, and for each forbidden outcome
/// (up to ``EscalationOptions/maxTargets``) what the search under the deterministic
/// scheduler found.
public struct StressReport<Outcome: Hashable & Sendable>: Sendable {
    /// The test's name: replay tokens of its escalations are recorded for it.
    public let test: String
    /// How many iterations ran (a hung one included).
    public let iterations: Int
    /// How many root threads ran at once.
    public let threads: Int
    /// The wall time the iterations took (without the escalation).
    public let elapsed: Duration
    /// Why the run stopped.
    public let stop: StressStop
    /// Every outcome seen, with its count and class: forbidden first, then interesting,
    /// then acceptable; the most frequent first within a class.
    public let histogram: [StressHistogramRow<Outcome>]
    /// The searches for the forbidden outcomes, in the order the outcomes were first seen.
    public let escalations: [StressEscalation<Outcome>]

    /// The rows of forbidden outcomes.
    public var forbidden: [StressHistogramRow<Outcome>] { histogram.filter { $0.verdict == .forbidden } }

    /// The rows of interesting outcomes.
    public var interesting: [StressHistogramRow<Outcome>] { histogram.filter { $0.verdict == .interesting } }

    /// Whether no iteration ended in a forbidden outcome.
    public var passed: Bool { forbidden.isEmpty }

    /// How many iterations ended in `outcome`.
    public func count(of outcome: StressOutcome<Outcome>) -> Int {
        histogram.first { $0.outcome == outcome }?.count ?? 0
    }
}
