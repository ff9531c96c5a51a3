import Foundation
import Harness

/// Schedules kept as regressions, replayed on every test run: `Tokens/regressions.txt`.
///
/// Each line is `EXPECTATION SCENARIO-NAME TOKEN`, where the expectation is `fails` (the
/// schedule must reproduce its failure: a mutant) or `passes` (a schedule of a real
/// primitive from a search that once exposed a bug, which must now pass). Either way the
/// code must follow the token exactly: a token the code leaves part way (recorded by an
/// older harness, or for code that changed since) is to be taken again. Names are scenario
/// names from ``RegressionCorpus/scenarios`` and may contain spaces; the token is the last
/// field. `#` starts a comment line.
public enum RegressionCorpus {
    /// What replaying an entry must give.
    public enum Expectation: String, Sendable {
        /// The schedule fails, as it did when it was recorded.
        case fails
        /// The schedule passes.
        case passes
    }

    /// One kept schedule.
    public struct Entry: Sendable, CustomStringConvertible {
        /// What replaying it must give.
        public let expectation: Expectation
        /// The scenario it belongs to.
        public let scenario: String
        /// The schedule.
        public let token: ReplayToken
        /// Its line in the file.
        public let line: Int

        public var description: String { "line \(line): \(expectation) \(scenario)" }
    }

    /// A line of the corpus that cannot be read.
    public struct MalformedLine: Error, CustomStringConvertible {
        /// The line's number.
        public let line: Int
        /// What is wrong with it.
        public let reason: String

        public var description: String { "Tokens/regressions.txt, line \(line): \(reason)" }
    }

    /// The corpus file in the source tree.
    public static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Tokens/regressions.txt")

    /// Reads the corpus; throws naming the first line that cannot be read.
    public static func load(from url: URL = file) throws -> [Entry] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var entries: [Entry] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let expectation = Expectation(rawValue: String(fields[0])) else {
                throw MalformedLine(
                    line: offset + 1, reason: "expected 'fails' or 'passes', a scenario name and a token")
            }
            let scenario = fields[1..<fields.count - 1].joined(separator: " ")
            guard scenarios[scenario] != nil else {
                throw MalformedLine(line: offset + 1, reason: "no scenario is named '\(scenario)'")
            }
            do {
                let token = try ReplayToken(parsing: String(fields[fields.count - 1]))
                entries.append(Entry(expectation: expectation, scenario: scenario, token: token, line: offset + 1))
            } catch {
                throw MalformedLine(line: offset + 1, reason: "\(error)")
            }
        }
        return entries
    }

    /// Every scenario a corpus line may name: each mutant under its name, and the real
    /// primitives' scenarios under the names their fuzz suites give them.
    public static let scenarios: [String: @Sendable (Scenario) -> Void] = {
        var scenarios: [String: @Sendable (Scenario) -> Void] = [:]
        for mutant in Mutant.all { scenarios[mutant.name] = mutant.scenario }
        scenarios["rw nested reads [random, seed 2]"] = ReadWriteScenarios.nestedReads { LiveReadWriteCoordinator() }
        scenarios["iothread join after exit [exhaustive:2, seed 1]"] = KillableThreadScenarios.joinAfterExit {
            LiveIOThread($0)
        }
        scenarios["limiter bound [random, seed 1]"] = AsyncScenarios.limiterBoundUnderCancellation {
            LiveConcurrencyLimiter(concurrency: 2)
        }
        return scenarios
    }()
}
