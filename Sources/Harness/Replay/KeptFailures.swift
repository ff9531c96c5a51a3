import Foundation
import Primitives

/// Failing schedules kept beside the test that found them, as proptest and Hypothesis keep
/// theirs: `.harness-regressions/<TestFile>.txt` in the test file's folder (SwiftPM skips
/// hidden folders), one `fails SCENARIO TOKEN` line each, the format of the fixtures'
/// regression corpus. ``Harness/explore(_:options:sourceLocation:_:)`` replays the kept
/// schedules of a scenario before it explores, and keeps a new failure unless keeping is
/// off: `HARNESS_KEEP_FAILURES=0`, or `CI` set (a CI run replays kept failures but does
/// not write). `HARNESS_KEEP_FAILURES` may also name a folder to keep them in instead.
struct KeptFailures {
    /// The file that holds them.
    let file: URL
    /// Whether new failures are written to it.
    let writes: Bool

    /// The variable that turns keeping off (`0`), on (`1`), or names the folder.
    static let variable = "HARNESS_KEEP_FAILURES"

    /// The kept failures of the test in `testFile`, as `environment` configures them;
    /// `nil` when keeping is off. Throws when the variable holds anything but `0`, `1`, an
    /// absolute folder path, or nothing.
    init?(testFile: String, environment: [String: String]) throws(HarnessConfigurationError) {
        let setting = environment[Self.variable].flatMap { $0.isEmpty ? nil : $0 }
        guard setting == nil || setting == "0" || setting == "1" || setting?.hasPrefix("/") == true else {
            throw .invalid(setting: Self.variable, value: setting ?? "", expected: "0 (off), 1 (on) or an absolute folder path")
        }
        if setting == "0" { return nil }
        let source = URL(fileURLWithPath: testFile)
        let folder = setting.flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? source.deletingLastPathComponent().appendingPathComponent(".harness-regressions")
        file = folder.appendingPathComponent(source.deletingPathExtension().lastPathComponent + ".txt")
        writes = setting != nil || environment["CI"] == nil
    }

    /// The kept schedules of `scenario`, oldest first; lines that cannot be read are skipped.
    func tokens(for scenario: String) -> [ReplayToken] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("fails "), let field = line.split(separator: " ").last,
                  let token = try? ReplayToken(parsing: String(field)), token.fits(scenario: scenario) else { return nil }
            return token
        }
    }

    /// How many kept lines of `scenario` hold a token of another format version (written by
    /// an older harness): they cannot be replayed, and are not skipped in silence.
    func outdatedCount(for scenario: String) -> Int {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").filter { (line: Substring) -> Bool in
            guard line.hasPrefix("fails "), let field = line.split(separator: " ").last else { return false }
            do {
                _ = try ReplayToken(parsing: String(field))
                return false
            } catch {
                guard case ReplayTokenError.unsupportedVersion = error else { return false }
                let fields = field.split(separator: ".")
                return fields.count > 1 && UInt32(fields[1], radix: 16) == ReplayToken.hash(scenario)
            }
        }.count
    }

    /// Appends `token`, found failing `scenario`, unless it is kept already. Throws when the
    /// file cannot be written.
    func keep(_ token: ReplayToken, scenario: String) throws {
        guard writes else { return }
        try Self.writing.withLockDirectly {
            let existing = (try? String(contentsOf: file, encoding: .utf8)) ?? Self.header
            let line = "fails \(scenario) \(token)\n"
            guard !existing.contains(line) else { return }
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((existing + line).utf8).write(to: file, options: .atomic)
        }
    }

    /// Serializes writers in this process (parallel tests of one file share it).
    private static let writing = SeamMutex()

    private static let header = """
        # Failing schedules the harness found, replayed before each exploration of their scenario.
        # Commit this file: once the bug is fixed, each schedule guards against its return.

        """

    /// What a report says of a failure kept in this file.
    var keptNote: String {
        "kept in \(file.path): replayed before exploring from now on"
    }

    /// What a report says of kept schedule `index` (from 0) of `count` that failed again.
    func failedAgainNote(index: Int, of count: Int) -> String {
        "kept failure \(index + 1) of \(count) from \(file.path) fails again"
    }

    /// What a warning says of `count` kept schedules an older harness wrote.
    func outdatedNote(count: Int) -> String {
        "\(file.path) keeps \(count) failing schedule(s) of this scenario in a token format this harness does not read (it reads H\(ReplayToken.formatVersion)); they are not replayed: find the failures again by exploring, then delete those lines"
    }

    /// What a warning says of kept schedule `index` (from 0) of `count` whose failure did
    /// not happen again after the code left the schedule.
    func notReproducedNote(index: Int, of count: Int, _ notReproduced: FailureNotReproduced) -> String {
        "kept failure \(index + 1) of \(count) from \(file.path): \(notReproduced)"
    }
}
