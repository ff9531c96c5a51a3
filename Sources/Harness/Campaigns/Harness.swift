import Foundation
import Primitives
import Testing

/// Runs code built on the runtime seam under controlled schedules, one thread at a time, in
/// an order a seeded strategy picks, and reports each failure with a token that replays it.
///
/// ```swift
/// @Test func noLostUpdates() {
///     Harness.explore { scenario in
///         let counter = SeamAtomic(0)
///         for _ in 0..<2 {
///             scenario.spawn { counter.store(counter.load() + 1) }   // a bug
///         }
///         scenario.joinAll()
///         Harness.check(counter.load() == 2, "an increment was lost")
///     }
/// }
/// ```
public enum Harness {
    /// Explores `body` and records its first failure, if any, as a Swift Testing issue at
    /// the call site, with the schedule drawn as lanes, the replay command, and two
    /// attachments: the full trace as text (`harness-N.txt`) and its picture as a
    /// self-contained HTML page (`harness-N.html`, see ``FailurePicture``). The environment
    /// may override `options` (see ``ExplorationOptions/applyingEnvironment(_:)``); an
    /// invalid setting is an issue too.
    /// A token in `HARNESS_REPLAY` replays the one scenario it was recorded for: others
    /// are skipped with a warning, so one filter can cover a parameterized test, and a run
    /// in which the token fits no scenario fails. Under `HARNESS_SHARD=i/n` only this
    /// shard's scenarios are explored. Every exploration is summed up when the test run
    /// ends (and written as JSON where `HARNESS_REPORT` points). Failures found are kept beside the test
    /// and replayed first on later runs (``ExplorationOptions/keepsFailures``). Returns the
    /// report, or `nil` when nothing was explored.
    @discardableResult
    public static func explore(
        _ name: String? = nil,
        options: ExplorationOptions = ExplorationOptions(),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) -> ExplorationReport? {
        let scenario = name ?? Test.current?.name ?? "\(sourceLocation.fileID):\(sourceLocation.line)"
        if let only = childScenario, only != scenario { return nil }
        let configured: ExplorationOptions
        do {
            configured = try options.applyingEnvironment()
            try configured.validate()
            if configured.replay == nil, try !HarnessEnvironment.shardIncludes(scenario, environment: ProcessInfo.processInfo.environment) {
                return nil
            }
        } catch {
            Harness.recordIssue("\(error)", sourceLocation: sourceLocation)
            return nil
        }
        if options.replay == nil, let token = configured.replay,
           !admitsEnvironmentToken(token.fits(scenario: scenario), scenario: scenario, sourceLocation: sourceLocation) {
            return nil
        }
        do {
            let kept = configured.replay == nil && configured.keepsFailures && childScenario == nil
                ? try KeptFailures(testFile: sourceLocation.filePath, environment: ProcessInfo.processInfo.environment)
                : nil
            if let kept, let report = try replayKept(kept, scenario: scenario, options: configured, sourceLocation: sourceLocation, body) {
                return report
            }
            let report = try execute(scenario, options: configured, body)
            CampaignSummary.add(report)
            if let notReproduced = report.notReproduced {
                Issue.record(Comment(rawValue: "\(notReproduced)"), severity: .warning, sourceLocation: sourceLocation)
            }
            if let failure = report.failure {
                var notes: [String] = []
                if let kept {
                    do {
                        try kept.keep(failure.token, scenario: scenario)
                        if kept.writes { notes.append(kept.keptNote) }
                    } catch {
                        notes.append("could not keep the failure in \(kept.file.path): \(error)")
                    }
                }
                record(failure, notes: notes, sourceLocation: sourceLocation)
            }
            return report
        } catch {
            Harness.recordIssue("\(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Replays the failures kept for `scenario`, oldest first; returns the report of the
    /// first that fails again (recorded as an issue), or `nil` when none does. A kept
    /// schedule that passes where the code followed it to the end is the guard holding, and
    /// says nothing; one the code left on the way, whose failure a seeded search from there
    /// did not find either, is a warning saying so, and so are kept schedules of an older
    /// token format.
    private static func replayKept(
        _ kept: KeptFailures,
        scenario: String,
        options: ExplorationOptions,
        sourceLocation: SourceLocation,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) throws(HarnessError) -> ExplorationReport? {
        let schedules: KeptFailures.Schedules
        do {
            schedules = try kept.schedules(of: scenario)
        } catch {
            throw .configuration(error)
        }
        if schedules.outdated > 0 {
            let note = kept.outdatedNote(count: schedules.outdated)
            Issue.record(Comment(rawValue: note), severity: .warning, sourceLocation: sourceLocation)
        }
        let tokens = schedules.tokens
        for (index, token) in tokens.enumerated() {
            var replaying = options
            replaying.replay = token
            let report = try execute(scenario, options: replaying, body)
            guard let failure = report.failure else {
                if let notReproduced = report.notReproduced, notReproduced.divergence != nil {
                    let note = kept.notReproducedNote(index: index, of: tokens.count, notReproduced)
                    Issue.record(Comment(rawValue: note), severity: .warning, sourceLocation: sourceLocation)
                }
                continue
            }
            record(failure, notes: [kept.failedAgainNote(index: index, of: tokens.count)], sourceLocation: sourceLocation)
            return report
        }
        return nil
    }

    /// Records `failure` as an issue, with `notes` after its report, and attaches its full
    /// trace and its picture.
    private static func record(_ failure: HarnessFailure, notes: [String], sourceLocation: SourceLocation) {
        recordIssue(([failure.message] + notes).joined(separator: "\n"), sourceLocation: sourceLocation)
        Attachment.record(failure.fullReport, named: "harness-\(failure.token.execution).txt", sourceLocation: sourceLocation)
        Attachment.record(failure.picture.html, named: "harness-\(failure.token.execution).html", sourceLocation: sourceLocation)
    }

    /// Explores `body` under `options` and returns what it found, recording nothing: for
    /// tests that expect a failure, and for tools. Of the environment it reads one
    /// variable, `HARNESS_REPLAY`, and only when `options.replay` is `nil` and the token
    /// fits `scenario`, so a failure's printed replay command works here too. Honors
    /// ``ExplorationOptions/isolation``: a crash under ``ExplorationIsolation/process``
    /// comes back as a failure (``ExecutionFailure/crashed(signal:cause:)``). Throws when
    /// a setting is out of range, when `options.replay` holds a token for another
    /// scenario, or when an isolated child could not report.
    public static func run(
        _ scenario: String,
        options: ExplorationOptions,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) throws(HarnessError) -> ExplorationReport {
        var options = options
        do {
            try options.validate()
        } catch {
            throw .configuration(error)
        }
        if let token = options.replay {
            guard token.fits(scenario: scenario) else {
                throw .configuration(.badReplayToken(
                    setting: "ExplorationOptions.replay",
                    .otherScenario(token: token.scenarioHash, scenario: scenario)
                ))
            }
        } else if let text = Knob.replay.value(in: ProcessInfo.processInfo.environment) {
            let token: ReplayToken
            do {
                token = try ReplayToken(parsing: text)
            } catch {
                throw .configuration(.badReplayToken(setting: ExplorationOptions.Variable.replay, error))
            }
            if token.fits(scenario: scenario) {
                ReplayMatching.noteFit()
                options.replay = token
            } else {
                ReplayMatching.noteMiss(scenario)
            }
        }
        return try execute(scenario, options: options, body)
    }

    /// Whether an exploration that `HARNESS_REPLAY` replays goes ahead: it does when the
    /// token `fits` the scenario; otherwise a warning at `sourceLocation` says the scenario is
    /// skipped. Either way ``ReplayMatching`` notes it, for the run's end.
    static func admitsEnvironmentToken(_ fits: Bool, scenario: String, sourceLocation: SourceLocation) -> Bool {
        guard fits else {
            ReplayMatching.noteMiss(scenario)
            let note = "skipped '\(scenario)': \(ExplorationOptions.Variable.replay) holds a token recorded for another scenario"
            Issue.record(Comment(rawValue: note), severity: .warning, sourceLocation: sourceLocation)
            return false
        }
        ReplayMatching.noteFit()
        return true
    }

    /// Runs the exploration where `options.isolation` says: in this process, or in a child
    /// (which, in the child itself, is this process).
    private static func execute(
        _ scenario: String,
        options: ExplorationOptions,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) throws(HarnessError) -> ExplorationReport {
        let testID = currentTestID
        if let served = servedOptions(scenario) {
            serveParent(scenario, options: served, testID: testID, body)
        }
        if childScenario != nil {
            return .notExplored(scenario, options: options)
        }
        if options.isolation == .process, let testID {
            return try exploreInChild(scenario, options: options, testID: testID)
        }
        return Explorer(scenario: scenario, options: options, body: body, testID: testID).run()
    }

    /// The running Swift Testing test's ID without its source location (`Module.Suite/name()`):
    /// what replay commands and isolated children select the test by, so a command printed
    /// before an edit above the test still selects it afterwards. `nil` outside a test.
    static var currentTestID: String? {
        guard var id = Test.current?.id else { return nil }
        id.sourceLocation = nil
        return id.description
    }

    /// Checks an invariant inside a scenario: when `condition` is false, the execution fails
    /// with `message` and is wound down. In a stress iteration it records the failure as the
    /// iteration's outcome and returns. Anywhere else it traps like `precondition`.
    public static func check(
        _ condition: @autoclosure () -> Bool,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        guard !condition() else { return }
        let text = message()
        guard let execution = Execution.current, let thread = Seam.currentThread else {
            if let stress = StressIteration.current {
                return stress.record(.checkFailed(message: text.isEmpty ? "check failed" : text, file: "\(file)", line: line))
            }
            preconditionFailure("Harness.check failed outside a controlled execution: \(text)", file: file, line: line)
        }
        execution.fail(.invariant(message: text.isEmpty ? "check failed" : text, thread: thread.rawValue, file: "\(file)", line: line))
    }

    static func runReportingErrors(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            guard let execution = Execution.current, let thread = Seam.currentThread else { return }
            execution.fail(.threadThrew(thread: thread.rawValue, error: "\(error)"))
        }
    }
}
