import Foundation

/// The words of a ``HarnessFailure``: its report, its replay command, and its schedule drawn
/// as lanes.
extension HarnessFailure: CustomStringConvertible {
    /// How many steps the report's lanes show at most; the full trace has them all.
    public static let lanesShown = 24

    /// The shell command that replays this failure: `HARNESS_REPLAY` holds the token, and
    /// `--filter` selects exactly the test that found it (``testFilter(_:)``). Both
    /// ``Harness/explore(_:options:sourceLocation:_:)`` and ``Harness/run(_:options:_:)``
    /// replay a token from `HARNESS_REPLAY` that fits their scenario. A step-bound failure sets
    /// `HARNESS_MAX_STEPS` too, so the replay stops where the original did.
    public var replayCommand: String {
        var bound: Int?
        if case .stepBoundExceeded(let maxSteps) = reason { bound = maxSteps }
        return Self.replayCommand(token: token.description, testID: testID, maxSteps: bound)
    }

    /// The replay command for the token spelled `token`, run by the test `testID`, with a
    /// step bound when it matters.
    static func replayCommand(token: String, testID: String?, maxSteps: Int?) -> String {
        let bound = maxSteps.map { "\(ExplorationOptions.Variable.maxSteps)=\($0) " } ?? ""
        let filter = testID.map { " --filter '\(testFilter($0))'" } ?? ""
        return "\(bound)\(ExplorationOptions.Variable.replay)='\(token)' swift test\(filter)"
    }

    /// The `--filter` pattern that selects exactly the test `testID` (an ID without its source
    /// location): `--filter` reads a regular expression and matches it anywhere in an ID that
    /// ends with the source location, so the pattern is anchored and escaped, and matches the
    /// test wherever its lines move. Two tests of a suite cannot share a name, so it selects one.
    static func testFilter(_ testID: String) -> String {
        "^" + NSRegularExpression.escapedPattern(for: testID)
    }

    /// The same replay in code: options that replay the token (``LinearizabilityOptions``
    /// for a token of a generated scenario).
    public var replayInCode: String {
        let options = token.generatedScenario == nil ? "ExplorationOptions" : "LinearizabilityOptions"
        return "\(options)(replay: try ReplayToken(parsing: \"\(token)\"))"
    }

    /// The report: what failed, how to replay it, and the steps as lanes. When the schedule
    /// has more rows than ``lanesShown``, it shows the rows that matter (``shownRows``) and
    /// says how many it left out.
    public var message: String {
        let shown = shownRows
        let left = shown.total - shown.rows.count
        let selection =
            left == 0
            ? ""
            : "; \(shown.rows.count) of its \(shown.total) rows shown (conflicting accesses, task steps, switches "
                + "between lanes and the end, with their neighbours), \(left) left out"
        return """
            \(reason)
            scenario: \(scenario)\(reproduction.map { "\nreproduced \($0)" } ?? "")
            replay: \(replayCommand)
            schedule (\(scheduleSize)\(selection)):
            \(lanes(shown.rows))
            """
    }

    /// The whole report, with every step of the scenario's.
    public var fullReport: String {
        """
        \(reason)
        scenario: \(scenario)\(reproduction.map { "\nreproduced \($0)" } ?? "")
        replay: \(replayCommand)
        in code: \(replayInCode)
        strategy: \(token.strategy), seed 0x\(String(token.seed, radix: 16)), execution \(token.execution)
        schedule (\(scheduleSize)):
        \(lanes(last: trace.count))
        """
    }

    public var description: String { message }

    /// The schedule's length in the steps a report shows (``shownStepCount``; with the whole
    /// trace's when the harness's own steps make it longer) and its preemptions, and what it was
    /// shrunk from, counted the same way. A shrunk schedule longer than the one it was shrunk
    /// from says why: it has fewer preemptions.
    var scheduleSize: String {
        let steps = shownStepCount
        let harnessSteps = steps < trace.count ? " (\(trace.count) with the harness's own)" : ""
        let size = "\(steps) steps\(harnessSteps), \(preemptions) preemption\(preemptions == 1 ? "" : "s")"
        guard let shrunkFrom else { return size }
        let why =
            steps > shrunkFrom.steps
            ? " (\(steps - shrunkFrom.steps) more steps for \(shrunkFrom.preemptions - preemptions) fewer preemptions)"
            : ""
        return size
            + "; shrunk from \(shrunkFrom.steps) steps, \(shrunkFrom.preemptions) preemption"
            + "\(shrunkFrom.preemptions == 1 ? "" : "s")\(why)"
    }

    /// How many steps of the trace a report shows: those of the code under test, the
    /// harness's own bookkeeping left out (``TraceStep/isBookkeeping``).
    public var shownStepCount: Int {
        trace.count { !$0.isBookkeeping }
    }

    /// One row of the lanes: a step of the scenario's, or a task's part of a job, in its lane.
    private struct LaneRow {
        let index: Int
        let lane: TraceLane
        let text: String
        /// Whether it names a place in the code: a step with a source location, or a task's job.
        let namesCode: Bool
        /// Whether it is a task's part of a job.
        let isTaskStep: Bool
    }

    /// The rows a report may show: every step but the harness's own bookkeeping, and for a
    /// job in which tasks ran, a row per task naming where it resumed and suspended.
    private var rows: [LaneRow] {
        trace.enumerated().flatMap { index, step -> [LaneRow] in
            if let jobs = taskJobPlaces[index] {
                return jobs.map { job in
                    let lane = TraceLane.task(job.task, named: taskNames[job.task])
                    return LaneRow(index: index, lane: lane, text: job.stepText, namesCode: true, isTaskStep: true)
                }
            }
            guard !step.isBookkeeping else { return [] }
            let lane = TraceLane(of: step, taskNames: taskNames)
            let namesCode = step.location != nil
            return [LaneRow(index: index, lane: lane, text: step.rowText, namesCode: namesCode, isTaskStep: false)]
        }
    }

    /// The rows ``message`` shows, of how many. All of them when they fit in ``lanesShown``;
    /// else, by rank: the last row (where the failure happened), each row of a conflicting
    /// access (``FailurePicture/Conflict``, drop-in calls included) and each task step; then
    /// each row that names code in another lane than the row before it (where the schedule
    /// switched lanes); then a neighbour of a row of the first rank on each side, among the
    /// rows that name code. Within a rank the later rows go first; the rows are shown in order.
    private var shownRows: (rows: [LaneRow], total: Int) {
        let all = rows
        guard all.count > Self.lanesShown else { return (all, all.count) }
        let conflicting = Set(FailurePicture.conflicts(in: trace).flatMap { [$0.earlier, $0.later] })
        var rank = [Int?](repeating: nil, count: all.count)
        for (position, row) in all.enumerated() where row.namesCode || position == all.count - 1 {
            if position == all.count - 1 || row.isTaskStep || conflicting.contains(row.index) {
                rank[position] = 0
            } else if position > 0, all[position - 1].lane != row.lane {
                rank[position] = 1
            }
        }
        for position in all.indices where rank[position] == 0 {
            for neighbour in [position - 1, position + 1]
            where all.indices.contains(neighbour) && all[neighbour].namesCode && rank[neighbour] == nil {
                rank[neighbour] = 2
            }
        }
        let chosen = all.indices.filter { rank[$0] != nil }
            .sorted { (rank[$0] ?? 0, -$0) < (rank[$1] ?? 0, -$1) }
            .prefix(Self.lanesShown)
        return (chosen.sorted().map { all[$0] }, all.count)
    }

    /// The last `count` of the scenario's steps (the harness's own bookkeeping left out, a
    /// job's tasks each on a row of its own), drawn as one lane per thread and task, each step
    /// with its source location.
    public func lanes(last count: Int) -> String {
        lanes(Array(rows.suffix(count)))
    }

    /// `rows` drawn as one lane per thread and task.
    private func lanes(_ shown: [LaneRow]) -> String {
        var seen: [TraceLane: TraceLane] = [:]
        for row in shown where seen[row.lane] == nil { seen[row.lane] = row.lane }
        let order = seen.keys.sorted().map { seen[$0] ?? $0 }
        let column = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        let width = 34
        // A label too long for its column keeps its end from the last colon, a line number.
        func cell(_ text: String) -> String {
            guard text.count > width - 1 else { return text.padding(toLength: width, withPad: " ", startingAt: 0) }
            let tail = text.lastIndex(of: ":").map { text[$0...] } ?? ""
            return String(text.prefix(width - 2 - tail.count)) + "…" + tail + " "
        }
        var lines = ["step  " + order.map { cell($0.label) }.joined()]
        for row in shown {
            let number = String(row.index).padding(toLength: 6, withPad: " ", startingAt: 0)
            lines.append(number + String(repeating: " ", count: width * (column[row.lane] ?? 0)) + row.text)
        }
        return lines.joined(separator: "\n")
    }
}

extension ReplayReproduction: CustomStringConvertible {
    public var description: String {
        switch self {
        case .exact:
            "exactly: the code followed the token to the failure"
        case let .prefixAndSearch(divergence, schedules):
            "by prefix and search: the code left the token at step \(divergence.step) (\(divergence.detail)); a seeded "
                + "search from there failed in schedule \(schedules), whose token this is"
        }
    }
}

extension FailureNotReproduced: CustomStringConvertible {
    public var description: String {
        guard let divergence else {
            return "the recorded failure no longer happens: the code followed all \(tokenSteps) steps of the token "
                + "and did not fail"
        }
        return "the recorded failure no longer happens: the code followed the token for \(divergence.step) of its "
            + "\(tokenSteps) steps (\(divergence.detail)), and a seeded search of \(schedulesRun) schedule"
            + "\(schedulesRun == 1 ? "" : "s") from there found no failure"
    }
}

extension FailureNotReproduced.Divergence {
    /// What the token recorded at ``step`` and what the code did instead, in words.
    public var detail: String {
        switch departure {
        case .pastLastStep(let tokenSteps):
            return "the execution goes on past the token's last step (\(tokenSteps) steps)"
        case let .cannotRun(expected, runnable):
            let threads = runnable.map { "T\($0.thread ?? -1) (\($0.kind))" }.joined(separator: ", ")
            return "the token runs T\(expected.thread ?? -1) (\(expected.kind)) but it cannot run here; "
                + "runnable: \(threads)"
        case let .jobChoice(queued, recorded):
            return "the code chose among \(queued) queued jobs; the token has "
                + (recorded.map { "\($0)" } ?? "no more steps")
        case let .otherStep(recorded, taken) where taken.isBookkeeping:
            // A step of the harness's own executor: its place is the harness's, not the code's.
            return "the code's tasks queued or ran other jobs than the token's: the token has \(recorded), "
                + "and the harness's task executor took \(EncodedStep(taken)) instead"
        case let .otherStep(recorded, taken):
            return "the token has \(recorded) but the code took \(EncodedStep(taken)): \(taken.summary)"
        case let .endedEarly(steps, tokenSteps):
            return "the execution ended after \(steps) steps; the token has \(tokenSteps)"
        }
    }
}
