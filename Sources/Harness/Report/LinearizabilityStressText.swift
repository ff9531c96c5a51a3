/// Every text a stress run of a ``LinearizabilityTest`` writes beyond the stress report's
/// own (``StressReportText``): its outcomes, their meanings, and its report, which fits
/// ``maxLines`` lines.
enum LinearizabilityStressText {
    /// The most lines ``report(_:)`` takes.
    static let maxLines = 40
    /// The most histogram rows the report shows; the attached full report has every row.
    static let rowsShown = 12

    /// What a linearizable history means.
    static var linearizable: String { "some sequential order explains every call" }

    /// What a history the checker rejected as `kind` means.
    static func meaning(_ kind: HistoryRejection.Kind) -> String {
        switch kind {
        case .notLinearizable: "no sequential order explains the results"
        case .modelNotDeterministic: "the model answered one call two ways"
        case .undecided: "the checker spent its budget without a verdict"
        case .foreignError: "a call threw an error the model's results cannot hold"
        }
    }

    /// An outcome as a row shows it: `linearizable`, or the kind of violation and the
    /// operations it involves, `not linearizable: dequeue(), enqueue`.
    static func outcome(_ outcome: LinearizabilityOutcome) -> String {
        switch outcome {
        case .linearizable: "linearizable"
        case .violation(let violation): self.violation(violation)
        }
    }

    /// A kind of violation: `not linearizable: dequeue(), enqueue`.
    static func violation(_ violation: HistoryViolation) -> String {
        let kind =
            switch violation.kind {
            case .notLinearizable: "not linearizable"
            case .modelNotDeterministic: "model not deterministic"
            case .undecided: "undecided"
            case .foreignError: "foreign error"
            }
        return violation.operations.isEmpty ? kind : "\(kind): \(violation.operations.joined(separator: ", "))"
    }

    /// The report, at most ``maxLines`` lines: the summary, the histogram (at most
    /// ``rowsShown`` rows) and, for each escalation, what it found in a few lines, with the
    /// replay command of a schedule found.
    static func report(_ report: StressReport<LinearizabilityOutcome>) -> String {
        var rows = StressReportText.histogram(Array(report.histogram.prefix(rowsShown)))
            .split(separator: "\n").map(String.init)
        if report.histogram.count > rowsShown {
            rows.append("  … \(report.histogram.count - rowsShown) more rows in the attached report")
        }
        var lines = [StressReportText.summary(report)] + rows
        for escalation in report.escalations {
            lines += self.escalation(escalation)
        }
        guard lines.count > maxLines else { return lines.joined(separator: "\n") }
        let cut = lines.count - maxLines + 1
        return (lines.prefix(maxLines - 1) + ["… \(cut) more lines in the attached report"]).joined(separator: "\n")
    }

    /// The whole report: the stress report with every row and every escalation in full.
    static func fullReport(_ report: StressReport<LinearizabilityOutcome>) -> String {
        StressReportText.report(report)
    }

    /// One escalation in at most three lines.
    private static func escalation(_ escalation: StressEscalation<LinearizabilityOutcome>) -> [String] {
        let head = "escalation of '\(escalation.target)':"
        switch escalation.result {
        case let .found(failure, strategy, schedulesRun):
            return [
                "\(head) found in \(failure.scenario) after \(schedules(schedulesRun)) (\(strategy))",
                "  why: \(StressReportText.firstLine(of: "\(failure.reason)"))",
                "  replay: \(failure.replayCommand)"
            ]
        case let .notFound(schedulesRun, _, _, likelyCauses):
            let cause = likelyCauses.first.map { "  most likely: \(StressReportText.cause($0))" }
            return ["\(head) no schedule ends in it within \(schedules(schedulesRun))"] + (cause.map { [$0] } ?? [])
        case .notSearched(let reason):
            return ["\(head) not searched: \(reason)"]
        }
    }

    /// `1 schedule`, `3 schedules`.
    private static func schedules(_ count: Int) -> String {
        "\(count) schedule\(count == 1 ? "" : "s")"
    }
}

extension LinearizabilityOutcome: CustomStringConvertible {
    /// The outcome as a report's row shows it (``LinearizabilityStressText/outcome(_:)``).
    public var description: String { LinearizabilityStressText.outcome(self) }
}

extension HistoryViolation: CustomStringConvertible {
    /// The kind of violation in words (``LinearizabilityStressText/violation(_:)``).
    public var description: String { LinearizabilityStressText.violation(self) }
}

extension StressReport where Outcome == LinearizabilityOutcome {
    /// The report of a ``LinearizabilityTest`` under stress, at most
    /// ``LinearizabilityStressText/maxLines`` lines: a summary line, a row per kind of
    /// outcome, and each escalation in a few lines with its replay command.
    public var text: String { LinearizabilityStressText.report(self) }

    /// The whole report: every row, and each escalation with its schedule.
    public var fullReport: String { LinearizabilityStressText.fullReport(self) }
}
