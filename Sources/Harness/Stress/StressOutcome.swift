/// What one stress iteration ended in: the row of the histogram it counts in.
public enum StressOutcome<Outcome: Hashable & Sendable>: Hashable, Sendable {
    /// The body returned `outcome`, and no check failed.
    case returned(Outcome)
    /// A ``Harness/check(_:_:file:line:)`` failed, the first of the iteration: `message` at
    /// `file`:`line`. Always forbidden.
    case checkFailed(message: String, file: String, line: UInt)
    /// The body, one of its threads or one of its tasks threw `error` (its description).
    /// Always forbidden.
    case threw(error: String)
    /// The iteration did not finish within the hang timeout of `seconds`: a deadlock, a
    /// livelock or a lost wake-up. Always forbidden; it ends the run, and its threads are
    /// left behind.
    case hung(seconds: Double)
    /// The iterations left about this many threads behind (never joined, or never ending).
    /// Always forbidden; it ends the run before the process runs out of threads.
    case leakedThreads(Int)

    /// The returned outcome, if the body returned one.
    public var returnedOutcome: Outcome? {
        if case .returned(let outcome) = self { outcome } else { nil }
    }

    /// The class of the outcome under `classification`: the table's for a returned outcome;
    /// the others are always forbidden.
    func verdict(under classification: OutcomeClassification<Outcome>) -> OutcomeClass {
        if case .returned(let outcome) = self { return classification.verdict(of: outcome) }
        return .forbidden
    }
}
