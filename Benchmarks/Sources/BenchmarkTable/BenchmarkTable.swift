#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("BenchmarkTable: unsupported platform")
#endif
import Workloads

/// Runs every comparison, subject and baseline alternately in one process, and prints one
/// markdown table: each benchmark, its baseline, their costs, the ratio, the target and
/// whether it was met. Progress goes to standard error.
///
/// Options: `--rounds N` (samples of each side, default 31; the harness's sections, whose
/// rounds each explore every scenario, run a third as many, at least 3), `--sample-ms N`
/// (milliseconds per sample, default 25), `--filter TEXT` (only comparisons whose subject or baseline
/// name contains TEXT), `--no-harness`, `--harness-only`, `--harness-speed` (only the
/// harness's speed targets of issue 11: a minute or two, where the whole harness section
/// takes several), `--peer PATH` (with `--harness-speed`: also sample Shuttle's build of the
/// same scenarios, `Peers/shuttle/build.sh`, side by side), `--bug-finding` (only the
/// schedules to the first failure of the bug patterns and mutants) with `--seeds N` (per
/// bug pattern, default 1000), `--strategies` (only the strategy comparison on the mutants
/// and deep bugs, ``StrategySection``), `--workers` (only one exploration on two workers
/// against one, ``WorkersSection``, which `--harness-speed` runs too).
@main
struct BenchmarkTable {
    static func main() async {
        let options: Options
        do {
            options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            printToStandardError("BenchmarkTable: \(error)")
            exit(2)
        }
        let log: (String) -> Void = { printToStandardError("… \($0)") }
        let sampler = Sampler(sampleDuration: .milliseconds(options.sampleMilliseconds), rounds: options.rounds)
        var table = Table()
        if !options.harnessOnly && !options.harnessSpeedOnly && !options.bugFindingOnly && !options.strategiesOnly
            && !options.workersOnly
        {
            for (title, comparisons) in Catalog.groups {
                let chosen = comparisons.filter(options.includes)
                guard !chosen.isEmpty else { continue }
                table.startGroup(title)
                for comparison in chosen {
                    log("\(comparison.subject.name) vs \(comparison.baseline.name)")
                    table.add(await sampler.compare(comparison))
                }
            }
        }
        do {
            if options.workersOnly {
                var section = WorkersSection()
                section.rounds = max(3, options.rounds / 3)
                section.run(into: &table, log: log)
            } else if options.strategiesOnly {
                StrategySection().run(into: &table, log: log)
            } else if options.bugFindingOnly {
                var section = BugFindingSection()
                section.seeds = options.seeds
                section.run(into: &table, log: log)
            } else if options.harnessSpeedOnly {
                var section = HarnessSpeedSection()
                section.rounds = max(3, options.rounds / 3)
                if let path = options.peerPath {
                    section.peer = try PeerProcess(path: path)
                }
                try section.run(into: &table, log: log)
                var workers = WorkersSection()
                workers.rounds = section.rounds
                workers.run(into: &table, log: log)
            } else if options.includeHarness {
                var section = HarnessSection()
                section.rounds = max(3, options.rounds / 3)
                section.run(into: &table, log: log)
            }
        } catch {
            printToStandardError("BenchmarkTable: \(error)")
            exit(1)
        }
        print(table.markdown)
        let tally = table.tally
        print("\nTargets: \(tally.passed) met, \(tally.missed) missed.")
    }
}

/// Writes `text` and a newline to standard error (progress and errors; the table goes to
/// standard output).
func printToStandardError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// The command line, read strictly: an unknown or malformed option is an error naming it.
struct Options {
    var rounds = 31
    var sampleMilliseconds = 25
    var filter: String?
    var includeHarness = true
    var harnessOnly = false
    var harnessSpeedOnly = false
    var peerPath: String?
    var bugFindingOnly = false
    var seeds = 1_000
    var strategiesOnly = false
    var workersOnly = false

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: [String]) throws(Invalid) {
        var remaining = arguments[...]
        func number(after option: String) throws(Invalid) -> Int {
            guard let text = remaining.popFirst(), let value = Int(text), value >= 1 else {
                throw Invalid(description: "\(option) needs a whole number of at least 1")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--rounds": rounds = try number(after: argument)
            case "--sample-ms": sampleMilliseconds = try number(after: argument)
            case "--filter":
                guard let text = remaining.popFirst() else { throw Invalid(description: "--filter needs a text") }
                filter = text
            case "--no-harness": includeHarness = false
            case "--harness-only": harnessOnly = true
            case "--harness-speed": harnessSpeedOnly = true
            case "--peer":
                guard let path = remaining.popFirst() else { throw Invalid(description: "--peer needs a path") }
                peerPath = path
            case "--bug-finding": bugFindingOnly = true
            case "--seeds": seeds = try number(after: argument)
            case "--strategies": strategiesOnly = true
            case "--workers": workersOnly = true
            default:
                throw Invalid(
                    description: """
                        unknown option '\(argument)'; expected --rounds N, --sample-ms N, --filter TEXT, \
                        --no-harness, --harness-only, --harness-speed, --peer PATH, --bug-finding, --seeds N, \
                        --strategies or --workers
                        """)
            }
        }
        if peerPath != nil && !harnessSpeedOnly {
            throw Invalid(description: "--peer samples the harness speed rows: give --harness-speed too")
        }
        if harnessOnly && !includeHarness {
            throw Invalid(description: "--harness-only and --no-harness exclude each other")
        }
    }

    func includes(_ comparison: Comparison) -> Bool {
        guard let filter else { return true }
        return comparison.subject.name.contains(filter) || comparison.baseline.name.contains(filter)
    }
}
