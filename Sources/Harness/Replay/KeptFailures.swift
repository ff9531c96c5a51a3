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
    static let variable = Knob.keepFailures.name

    /// The kept failures of the test in `testFile`, as `environment` configures them;
    /// `nil` when keeping is off. Throws when the variable holds anything but `0`, `1`, an
    /// absolute folder path, or nothing.
    init?(testFile: String, environment: [String: String]) throws(HarnessConfigurationError) {
        let setting = Knob.keepFailures.value(in: environment)
        guard setting == nil || setting == "0" || setting == "1" || setting?.hasPrefix("/") == true else {
            throw .invalid(
                setting: Self.variable, value: setting ?? "", expected: "0 (off), 1 (on) or an absolute folder path")
        }
        if setting == "0" { return nil }
        let source = URL(fileURLWithPath: testFile)
        let folder =
            setting.flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? source.deletingLastPathComponent().appendingPathComponent(".harness-regressions")
        file = folder.appendingPathComponent(source.deletingPathExtension().lastPathComponent + ".txt")
        writes = setting != nil || environment["CI"] == nil
    }

    /// The schedules kept for one scenario.
    struct Schedules {
        /// Those this harness replays, oldest first.
        var tokens: [ReplayToken] = []
        /// How many an older harness wrote, in a token format this one does not read: they
        /// cannot be replayed, and are not skipped in silence.
        var outdated = 0
    }

    /// The schedules kept for `scenario`. Every line of the file is checked, not only the
    /// scenario's, so a damaged file stops the run instead of dropping its guards: throws,
    /// naming the file and the line, when the file is not UTF-8 text, or a line is neither
    /// empty, a `#` comment nor `fails SCENARIO TOKEN` with a token recorded for SCENARIO.
    /// No file means no schedules.
    func schedules(of scenario: String) throws(HarnessConfigurationError) -> Schedules {
        var schedules = Schedules()
        guard let text = try read() else { return schedules }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let kept = try Self.parse(line, number: index + 1, file: file) else { continue }
            guard kept.scenario == scenario else { continue }
            if let token = kept.token {
                schedules.tokens.append(token)
            } else {
                schedules.outdated += 1
            }
        }
        return schedules
    }

    /// The file's text; `nil` when there is no file. Throws when it exists but cannot be
    /// read as UTF-8 text.
    private func read() throws(HarnessConfigurationError) -> String? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .corruptKeptFailures(
                file: file.path, line: nil, problem: .unreadable(reason: error.localizedDescription))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .corruptKeptFailures(file: file.path, line: nil, problem: .notUTF8)
        }
        return text
    }

    /// The scenario and token of line `number`; `nil` for an empty or comment line, and a
    /// `nil` token for one in an older token format.
    private static func parse(
        _ line: Substring,
        number: Int,
        file: URL
    ) throws(HarnessConfigurationError) -> (scenario: Substring, token: ReplayToken?)? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        func corrupt(_ problem: HarnessConfigurationError.KeptFailuresProblem) -> HarnessConfigurationError {
            .corruptKeptFailures(file: file.path, line: number, problem: problem)
        }
        guard line.hasPrefix("fails "), let space = line.lastIndex(of: " "),
            space > line.index(line.startIndex, offsetBy: 5)
        else { throw corrupt(.notAKeptFailure(line: String(line.prefix(80)))) }
        let scenario = line[line.index(line.startIndex, offsetBy: 6)..<space]
        let field = String(line[line.index(after: space)...])
        let token: ReplayToken
        do throws(ReplayTokenError) {
            token = try ReplayToken(parsing: field)
        } catch .unsupportedVersion {
            return (scenario, nil)
        } catch {
            throw corrupt(.unreadableToken(error))
        }
        guard token.fits(scenario: String(scenario)) else { throw corrupt(.otherScenario(String(scenario))) }
        return (scenario, token)
    }

    /// Appends `token`, found failing `scenario`, unless it is kept already. Throws when the
    /// file cannot be read as text (it is never overwritten whole) or cannot be written.
    func keep(_ token: ReplayToken, scenario: String) throws {
        guard writes else { return }
        try Self.writing.withLockDirectly {
            let existing = try read() ?? Self.header
            let line = "fails \(scenario) \(token)\n"
            guard !existing.contains(line) else { return }
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((existing + line).utf8).write(to: file, options: .atomic)
        }
    }

    /// Serializes writers in this process (parallel tests of one file share it).
    private static let writing = SeamMutex()

    private static let header = """
        # Failing schedules the harness found, replayed before each exploration of their scenario.
        # Commit this file: once the bug is fixed, each schedule guards against its return.

        """
}
