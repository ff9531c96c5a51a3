import Foundation

/// One exploration's line in a campaign summary, as the table and the JSON give it.
public struct CampaignEntry: Sendable, Hashable, Codable {
    /// The scenario's name.
    public let scenario: String
    /// The strategy, as ``Strategy/description`` spells it.
    public let strategy: String
    /// The campaign's seed.
    public let seed: UInt64
    /// How many schedules ran.
    public let schedules: Int
    /// How many of them were distinct interleavings.
    public let distinctInterleavings: Int
    /// Whether the last tenth of the schedules still found new interleavings.
    public let growing: Bool
    /// Schedules per second of wall time.
    public let schedulesPerSecond: Double
    /// The bound on missing a bug of depth 3 or less with the PCT schedules run (all of a
    /// PCT exploration's, a quarter of a portfolio's); `nil` for other strategies.
    public let pctMissBound: Double?
    /// Whether the exploration failed.
    public let failed: Bool
    /// That it asked for coroutines and went on on OS threads from a schedule that needed them
    /// (the first of a generated-scenario test's explorations that did).
    public let osThreadFallback: OSThreadFallback?

    init(_ report: ExplorationReport) {
        scenario = report.scenario
        strategy = report.strategy.description
        seed = report.seed
        schedules = report.schedulesRun
        distinctInterleavings = report.coverage.distinctInterleavings
        growing = report.coverage.isGrowing
        schedulesPerSecond = report.schedulesPerSecond
        failed = report.failure != nil
        osThreadFallback = report.osThreadFallback
        pctMissBound = report.pctSchedules.flatMap { report.coverage.pctMissBound(depth: 3, schedules: $0) }
    }

    /// The entry of a generated-scenario test (``LinearizabilityTest``), which explores one
    /// scenario after another: their schedules and distinct interleavings added up, growing
    /// when any was still growing, and the weakest of their PCT bounds (each bounds missing a
    /// bug in its own scenario).
    init(scenario: String, strategy: Strategy, seed: UInt64, reports: [ExplorationReport], elapsed: Duration) {
        let entries = reports.map(CampaignEntry.init)
        self.scenario = scenario
        self.strategy = strategy.description
        self.seed = seed
        schedules = entries.reduce(0) { $0 + $1.schedules }
        distinctInterleavings = entries.reduce(0) { $0 + $1.distinctInterleavings }
        growing = entries.contains(where: \.growing)
        schedulesPerSecond = elapsed.seconds > 0 ? Double(schedules) / elapsed.seconds : 0
        pctMissBound = entries.compactMap(\.pctMissBound).max()
        failed = entries.contains(where: \.failed)
        osThreadFallback = entries.lazy.compactMap(\.osThreadFallback).first
    }
}

extension ExplorationReport {
    /// How many of the schedules PCT chose: all for PCT, a member's share for a portfolio.
    var pctSchedules: Int? {
        switch strategy.kind {
        case .pct: schedulesRun
        case .portfolio(let members) where members.contains(where: { if case .pct = $0.kind { true } else { false } }):
            schedulesRun / members.count
        default: nil
        }
    }
}

/// The explorations of one test run, summed up when the run ends (``RunState``): a table on
/// standard error, and JSON where `HARNESS_REPORT` points, which a release gate or a CI matrix
/// reads. JSON files of shards are arrays of entries: concatenated, they are the unsharded run's.
enum CampaignSummary {
    /// The variable that names the JSON file.
    static let reportVariable = ExplorationOptions.Variable.report

    /// Writes the table of `entries` on standard error, and the entries as JSON to
    /// `reportPath` when there is one; ends the process with a failure when the file cannot be
    /// written.
    static func finish(_ entries: [CampaignEntry], reportPath: String?) {
        FileHandle.standardError.write(Data(table(entries).utf8))
        guard let path = reportPath else { return }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(entries).write(to: URL(fileURLWithPath: path))
        } catch {
            // Checked writable before exploring; a run whose summary is lost all the same
            // (the folder removed meanwhile, a full disk) must not pass.
            let message = "error: could not write the campaign summary to \(reportVariable)='\(path)': \(error)\n"
            FileHandle.standardError.write(Data(message.utf8))
            _exit(EXIT_FAILURE)
        }
    }

    /// The summary table. Its first column is as wide as the longest scenario name, which
    /// may carry a note (``SequenceCoverageText``) that must not be cut.
    static func table(_ entries: [CampaignEntry]) -> String {
        let nameWidth = max(52, (entries.map(\.scenario.count).max() ?? 0) + 2)
        let schedules = entries.reduce(0) { $0 + $1.schedules }
        let failures = entries.filter(\.failed).count
        let growing = entries.filter(\.growing).count
        var lines = [
            "harness campaign: \(entries.count) explorations, \(schedules) schedules, \(failures) failed, \(growing) "
                + "still finding new interleavings",
            pad("scenario", nameWidth) + pad("strategy", 14) + pad("schedules", 11) + pad("distinct", 10)
                + pad("growing", 9) + pad("sched/s", 9) + "P(miss depth≤3)"
        ]
        let sorted = entries.sorted(by: { ($0.scenario, $0.strategy) < ($1.scenario, $1.strategy) })
        for entry in sorted {
            lines.append(
                pad(entry.scenario, nameWidth) + pad(entry.strategy, 14) + pad("\(entry.schedules)", 11)
                    + pad("\(entry.distinctInterleavings)", 10)
                    + pad(entry.growing ? "yes" : "no", 9) + pad(rate(entry.schedulesPerSecond), 9)
                    + (entry.pctMissBound.map { "≤ " + String(format: "%.3g", $0) } ?? "–")
                    + (entry.failed ? "  FAILED" : "")
            )
        }
        for entry in sorted {
            if let fallback = entry.osThreadFallback { lines.append("\(entry.scenario): \(fallback)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Schedules per second: whole above 10, else two significant digits, so that a slow
    /// exploration (an isolated one, a few schedules) does not read as `0`.
    static func rate(_ perSecond: Double) -> String {
        perSecond >= 10 ? "\(Int(perSecond))" : String(format: "%.2g", perSecond)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width
            ? String(text.prefix(width - 2)) + "… " : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
