/// A generated scenario as a report shows it: the initial part, the parallel part with one
/// column per thread (or task), and the final part, each call with what it returned.
public struct ScenarioTable: Sendable, Hashable, CustomStringConvertible {
    /// A client of the parallel part: its lane's name and its calls, top to bottom.
    public struct Column: Sendable, Hashable {
        /// The lane's name, as the schedule names it: `T1`, or `client 1` for a task.
        public let lane: String
        /// Each call with its result: `dequeue() → 1`.
        public let cells: [String]
    }

    /// Where the initial and final parts ran: `T0`, or `task initial` and `task final`.
    public let initialLane: String
    /// The initial part's calls with their results.
    public let initial: [String]
    /// The parallel part.
    public let columns: [Column]
    /// Where the final part ran.
    public let finalLane: String
    /// The final part's calls with their results.
    public let final: [String]

    /// The widest a column gets; longer cells are cut with `…`.
    public static let columnWidth = 44

    /// The table as lines of text.
    public var lines: [String] {
        func part(_ name: String, _ lane: String, _ calls: [String]) -> String {
            "\(name) (\(lane)): " + (calls.isEmpty ? "none" : calls.joined(separator: ", "))
        }
        var lines = [part("initial", initialLane, initial), "parallel:"]
        let widths = columns.map { column in
            min(Self.columnWidth, ([column.lane] + column.cells).map(\.count).max() ?? 0) + 3
        }
        func row(_ texts: [String]) -> String {
            var line = "  "
            for (text, width) in zip(texts, widths) {
                let cut = text.count > width - 3 ? String(text.prefix(width - 4)) + "…" : text
                line += cut.padding(toLength: width, withPad: " ", startingAt: 0)
            }
            return String(line.reversed().drop(while: { $0 == " " }).reversed())
        }
        lines.append(row(columns.map(\.lane)))
        let height = columns.map(\.cells.count).max() ?? 0
        for index in 0..<height {
            lines.append(row(columns.map { index < $0.cells.count ? $0.cells[index] : "" }))
        }
        lines.append(part("final", finalLane, final))
        return lines
    }

    public var description: String { lines.joined(separator: "\n") }
}

extension LinearizabilityTest {
    /// The table of `scenario` with what each call returned in `record`, an execution of
    /// it; without a record, only the calls.
    static func table(of scenario: GeneratedScenario<Call>, record: ExecutionCapture?, usesTasks: Bool) -> ScenarioTable
    {
        let history = record?.history.history
        func cell(_ call: Call, _ slot: CallSlot) -> String {
            guard let record, let history else { return call.label }
            guard let recorder = record.recorder(at: slot) else { return "\(call.label) (not run)" }
            let entries = recorder.entries.map { history.entries[$0] }
            let unfinished = record.endedWithBlockedCalls ? "(blocked)" : "(pending)"
            func outcome(_ entry: History<Model.Operation, Model.Result>.Entry) -> String {
                entry.result.map { "→ \($0)" } ?? unfinished
            }
            if entries.count == 1, "\(entries[0].operation)" == call.label {
                return "\(call.label) \(outcome(entries[0]))"
            }
            let results = entries.map { $0.result.map { "\($0)" } ?? unfinished }
            return "\(call.label) → " + (results.isEmpty ? "(nothing recorded)" : results.joined(separator: ", "))
        }
        func lane(_ part: CallSlot.Part, _ fallback: String) -> String {
            record?.lane(of: part).map { usesTasks ? "task \($0)" : $0 } ?? fallback
        }
        return ScenarioTable(
            initialLane: lane(.initial, usesTasks ? "task initial" : "T0"),
            initial: scenario.initial.enumerated().map { cell($1, CallSlot(part: .initial, index: $0)) },
            columns: scenario.parallel.enumerated().map { client, calls in
                ScenarioTable.Column(
                    lane: record?.lane(of: .parallel(client: client)) ?? "client \(client + 1)",
                    cells: calls.enumerated().map { cell($1, CallSlot(part: .parallel(client: client), index: $0)) }
                )
            },
            finalLane: lane(.final, usesTasks ? "task final" : "T0"),
            final: scenario.final.enumerated().map { cell($1, CallSlot(part: .final, index: $0)) }
        )
    }
}
