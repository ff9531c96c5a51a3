extension GeneratedScenarioFailure: CustomStringConvertible {
    /// The most lines ``message`` takes.
    public static let maxLines = 40
    /// The most lines the table takes in ``message`` (a scenario reported unshrunk can be
    /// long); ``fullReport`` has all of it.
    public static let maxTableLines = 14
    /// The most lines the reason takes in ``message``: its first two and its last ones, which
    /// say what no order could explain; ``fullReport`` has all of it.
    public static let maxReasonLines = 12

    /// Why the scenario fails: for a history its check rejected, the verdict in words (or
    /// the call that threw what the model cannot hold); otherwise the failure the harness
    /// detected.
    public var reason: String {
        if case .historyRejected(let rejection, _) = failure.reason {
            return "\(rejection)"
        }
        return "\(failure.reason)"
    }

    /// The report, at most ``maxLines`` lines: the smallest scenario, why it fails, the replay
    /// command and the last steps of its schedule.
    public var message: String {
        var tableLines = table.lines
        if tableLines.count > Self.maxTableLines {
            let cut = tableLines.count - Self.maxTableLines + 1
            let more = "  … (\(cut) more lines in the attached report)"
            tableLines = tableLines.prefix(Self.maxTableLines - 1) + [more]
        }
        var lines = header + tableLines
        var reasonLines = ("why: " + reason).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if reasonLines.count > Self.maxReasonLines {
            let cut = reasonLines.count - Self.maxReasonLines + 1
            reasonLines =
                reasonLines.prefix(2) + ["  … (\(cut) more lines in the attached report)"]
                + reasonLines.suffix(Self.maxReasonLines - 3)
        }
        lines += reasonLines
        lines.append("replay: \(failure.replayCommand)")
        let room = max(4, Self.maxLines - lines.count - 2)
        let scheduleLines = failure.lanes(last: min(room, HarnessFailure.lanesShown)).split(separator: "\n").map(
            String.init)
        let shown = scheduleLines.count - 1
        let lastSteps = shown < failure.trace.count ? "; the last \(shown) of the scenario's steps shown" : ""
        lines.append("schedule (\(failure.scheduleSize)\(lastSteps)):")
        lines += scheduleLines
        return lines.joined(separator: "\n")
    }

    /// The whole report: the scenario, the whole reason, and the failure's full report with
    /// every step.
    public var fullReport: String {
        (header + table.lines + ["why: " + reason, "", failure.fullReport]).joined(separator: "\n")
    }

    public var description: String { message }

    private var header: [String] {
        let second: String
        if replayed {
            second =
                "the scenario: \(shape); reproduced from its token "
                + "\(failure.reproduction.map { "\($0)" } ?? "exactly"):"
        } else if candidatesExplored == 0 {
            second = "failing scenario, as generated (not shrunk): \(shape):"
        } else if shrinkSteps == 0 {
            second =
                "smallest failing scenario: \(shape); none of the \(candidatesExplored) smaller candidates explored "
                + "fails:"
        } else {
            second =
                "smallest failing scenario: \(shape); shrunk in \(shrinkSteps) steps from \(generatedShape) "
                + "(\(candidatesExplored) candidates explored):"
        }
        return ["generated scenario \(scenarioCode) of '\(test)' fails", second]
    }
}
