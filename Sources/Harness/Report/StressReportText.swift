import Foundation

/// Every text a stress run writes: the report, its histogram, escalations, progress lines,
/// the crash note and the message of a reached outcome. Each is built here and nowhere else,
/// and none is parsed back.
enum StressReportText {
    /// How every progress line starts.
    static let prefix = "harness stress: "

    // MARK: Outcomes

    /// An outcome as a histogram row shows it.
    static func outcome<Outcome>(_ outcome: StressOutcome<Outcome>) -> String {
        switch outcome {
        case .returned(let value): "\(value)"
        case let .checkFailed(message, file, line): "check failed at \(file):\(line): \(message)"
        case .threw(let error): "threw: \(error)"
        case .hung(let seconds): "hung: did not finish within \(seconds) s"
        case .leakedThreads(let count): "leaked threads: about \(count) threads left behind since the run began"
        }
    }

    /// The message of the check that fails an execution under the harness because it
    /// returned the forbidden `outcome`.
    static func reached<Outcome>(_ outcome: Outcome) -> String {
        "the scenario returned the forbidden outcome \(outcome)"
    }

    /// What an outcome means when the test's table does not say: a failed check, an error, a
    /// hang, a leak of threads; a returned outcome reads as one no rule covers (the table's
    /// meaning, from ``OutcomeClassification/classify(_:)``, comes first).
    static func meaning<Outcome>(of outcome: StressOutcome<Outcome>) -> String {
        switch outcome {
        case .returned: OutcomeClassification<Outcome>.unlistedMeaning
        case .checkFailed: "a check failed"
        case .threw: "an error was thrown"
        case .hung: "a hang: deadlock, livelock or lost wake-up"
        case .leakedThreads: "threads left behind: never joined, or never ending"
        }
    }

    /// What an outcome no rule of the test's table covers means.
    static var unlistedMeaning: String { "not in the test's outcome table" }

    // MARK: The report

    /// The whole report.
    static func report<Outcome>(_ report: StressReport<Outcome>) -> String {
        var lines = [summary(report), histogram(report.histogram)]
        for escalation in report.escalations {
            lines.append(self.escalation(escalation))
        }
        return lines.joined(separator: "\n")
    }

    static func summary<Outcome>(_ report: StressReport<Outcome>) -> String {
        let stop =
            switch report.stop {
            case .iterations: "all iterations ran"
            case .timeBudget: "time budget reached"
            case .timeCap: "time cap reached while new outcomes still appeared"
            case .hang: "stopped by a hang; its threads are left behind"
            case .threadLeak: "stopped: iterations leave threads behind"
            }
        let forbidden = report.forbidden.filter(\.outcome.endsAnIteration).reduce(0) { $0 + $1.count }
        let verdict =
            forbidden == 0
            ? "no forbidden outcome"
            : "\(forbidden) \(forbidden == 1 ? "iteration" : "iterations") ended in a forbidden outcome"
        return
            "stress '\(report.test)': \(report.iterations) iterations in \(seconds(report.elapsed)) on "
            + "\(report.threads) "
            + "\(report.threads == 1 ? "thread" : "threads") (\(stop)); \(verdict)"
    }

    /// The histogram as a table: count, class, outcome and what it means.
    static func histogram<Outcome>(_ rows: [StressHistogramRow<Outcome>]) -> String {
        let countWidth = max(rows.map { "\($0.count)".count }.max() ?? 0, 5)
        let outcomes = rows.map { outcome($0.outcome) }
        let outcomeWidth = min(max(outcomes.map(\.count).max() ?? 0, 7), 72)
        var lines = [
            "  " + pad("count", countWidth, right: true) + "  " + pad("class", 11) + "  " + pad("outcome", outcomeWidth)
                + "  meaning"
        ]
        for (row, text) in zip(rows, outcomes) {
            lines.append(
                "  " + pad("\(row.count)", countWidth, right: true) + "  " + pad(row.verdict.rawValue, 11) + "  "
                    + pad(text, outcomeWidth) + "  " + row.meaning
            )
        }
        return lines.joined(separator: "\n")
    }

    /// One escalation: what was searched for and what was found.
    static func escalation<Outcome>(_ escalation: StressEscalation<Outcome>) -> String {
        let head = "escalation of '\(outcome(escalation.target))':"
        switch escalation.result {
        case let .found(failure, strategy, schedulesRun):
            return """
                \(head) found under the deterministic scheduler after \(schedulesRun) schedules (\(strategy), seed \
                0x\(String(failure.token.seed, radix: 16)))
                \(failure.message)
                """
        case let .notFound(schedulesRun, otherFailures, otherForbiddenReached, likelyCauses):
            var lines = [
                "\(head) no schedule ends in it within \(schedulesRun) schedules. Likely causes, the most likely first:"
            ]
            if otherForbiddenReached > 0 {
                lines[0] =
                    "\(head) no schedule ends in it within \(schedulesRun) schedules, though \(otherForbiddenReached) "
                    + "ended in "
                    + "other forbidden outcomes. Likely causes, the most likely first:"
            }
            lines += likelyCauses.map { "  - " + cause($0) }
            if !otherFailures.isEmpty {
                lines.append("other failures met on the way:")
                for failure in otherFailures {
                    lines.append("  - \(firstLine(of: "\(failure.reason)"))\n    replay: \(failure.replayCommand)")
                }
            }
            return lines.joined(separator: "\n")
        case .notSearched(let reason):
            return "\(head) not searched: \(reason)"
        }
    }

    /// What a likely cause means.
    static func cause(_ cause: LikelyCause) -> String {
        switch cause {
        case .weakMemoryOrdering:
            "memory ordering weaker than the model: the harness runs one thread at a time over sequentially consistent "
                + "memory, "
                + "so a race that needs accesses seen out of order has no schedule there"
        case .codeOutsideTheSeam:
            "code outside the seam: shared state touched without SeamMutex, SeamCondition or SeamAtomic (plain "
                + "variables, "
                + "Foundation or Synchronization locks, Dispatch, tasks that escape the executor) is not a scheduling "
                + "point"
        case .realTime:
            "real time: the outcome depends on how long something took, and the harness runs sleeps and timeouts on a "
                + "virtual clock"
        case .budget:
            "the budget: the schedule needs more preemptions or schedules; raise "
                + "\(StressOptions.Variable.escalationSchedules)"
        }
    }

    /// Why a leak of threads is not searched for.
    static var leakNotSearched: String {
        "the harness has no failure for a thread that is never joined; search the scenario's own checks instead"
    }

    // MARK: Lines on standard error

    /// What every progress line of the run of `test` starts with (``ProgressMeter/label``).
    static func progressLabel(test: String) -> String {
        "\(prefix)\(test):"
    }

    /// A progress line, after the label.
    static func progressLine(iterations: Int, budget: Int, elapsed: Duration, forbidden: Int) -> String {
        "\(iterations)/\(budget) iterations, \(ProgressLine.rate(iterations, in: elapsed))/s, \(forbidden) forbidden"
    }

    /// The lines a run with progress lines ends with, after the label: its histogram.
    static func finishedLines<Outcome>(iterations: Int, elapsed: Duration, rows: [StressHistogramRow<Outcome>])
        -> String
    {
        "\(iterations) iterations in \(seconds(elapsed))\n" + histogram(rows)
    }

    /// What the process prints when a thread of the run crashes.
    static func crashNote(test: String, iterations: Int, forbidden: Int) -> String {
        """

        A thread crashed during the stress run of '\(test)', a forbidden outcome that ends the process: \
        \(iterations) iterations had ended, \(forbidden) of them in forbidden outcomes. To find the crashing \
        schedule under the deterministic scheduler, explore the same scenario with \
        \(ExplorationOptions.Variable.isolation)=process, which reports a crash as a failure with its replay command.

        """
    }

    // MARK: Helpers

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f s", duration.seconds)
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        guard text.count < width else { return text }
        let padding = String(repeating: " ", count: width - text.count)
        return right ? padding + text : text + padding
    }

    static func firstLine(of text: String) -> Substring {
        text.prefix { $0 != "\n" }
    }
}
