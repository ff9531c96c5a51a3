/// The stress values' words, built by ``StressReportText``: the values themselves (in
/// `Stress/`) hold none.
extension StressOutcome: CustomStringConvertible {
    public var description: String { StressReportText.outcome(self) }

    /// The class of the outcome under `classification`, and what it means: the table's
    /// meaning for a returned outcome, the report's words (``StressReportText/meaning(of:)``)
    /// for the others, which are always forbidden.
    public func classified(
        by classification: OutcomeClassification<Outcome>
    ) -> (verdict: OutcomeClass, meaning: String) {
        if case .returned(let outcome) = self { return classification.classify(outcome) }
        return (.forbidden, StressReportText.meaning(of: self))
    }
}

extension OutcomeClassification {
    /// What an outcome no rule covers means, for the report.
    public static var unlistedMeaning: String { StressReportText.unlistedMeaning }

    /// The class of `outcome` and what it means.
    public func classify(_ outcome: Outcome) -> (verdict: OutcomeClass, meaning: String) {
        for rule in rules where rule.covers(outcome) {
            return (rule.verdict, rule.meaning)
        }
        return (unlisted, Self.unlistedMeaning)
    }
}

extension StressHistogram {
    /// The rows of a report: forbidden first, then interesting, then acceptable; within a
    /// class, the most frequent first.
    func rows(classifiedBy classification: OutcomeClassification<Outcome>) -> [StressHistogramRow<Outcome>] {
        tallies.map { outcome, tally in
            let (verdict, meaning) = outcome.classified(by: classification)
            return StressHistogramRow(
                outcome: outcome,
                count: tally.count,
                verdict: verdict,
                meaning: meaning,
                firstIteration: tally.firstIteration
            )
        }
        .sorted { ($0.verdict, -$0.count, $0.firstIteration) < ($1.verdict, -$1.count, $1.firstIteration) }
    }
}

extension StressReport {
    /// The report as text: a summary line, the histogram, and each escalation with its
    /// replay command.
    public var text: String { StressReportText.report(self) }
}

extension StressReportText {
    /// What the stress run of `test` prints, in this file's words.
    static func runWording<Outcome>(
        test: String,
        outcomes: OutcomeClassification<Outcome>
    ) -> StressRunWording<Outcome> {
        StressRunWording(
            progressLabel: progressLabel(test: test),
            progressLine: { progressLine(iterations: $0, budget: $1, elapsed: $2, forbidden: $3) },
            finishedLines: { histogram, elapsed in
                let rows = histogram.rows(classifiedBy: outcomes)
                return finishedLines(iterations: histogram.total, elapsed: elapsed, rows: rows)
            },
            crashNote: { crashNote(test: test, iterations: $0, forbidden: $1) }
        )
    }
}
