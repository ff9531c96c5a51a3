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
    /// the call site, with the schedule drawn as lanes, the replay command, and the full
    /// trace as an attachment. The environment may override `options` (see
    /// ``ExplorationOptions/applyingEnvironment(_:)``); an invalid setting is an issue too.
    /// A token in `HARNESS_REPLAY` replays the one scenario it was recorded for: others
    /// are skipped with a warning, so one filter can cover a parameterized test. With
    /// ``ExplorationIsolation/process`` the exploration runs in a child process and this
    /// returns `nil`.
    @discardableResult
    public static func explore(
        _ name: String? = nil,
        options: ExplorationOptions = ExplorationOptions(),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) -> ExplorationReport? {
        let scenario = name ?? Test.current?.name ?? "\(sourceLocation.fileID):\(sourceLocation.line)"
        let configured: ExplorationOptions
        do {
            configured = try options.applyingEnvironment()
        } catch {
            Issue.record(Comment(rawValue: "\(error)"), sourceLocation: sourceLocation)
            return nil
        }
        if let only = childScenario {
            guard only == scenario else { return nil }
        } else if configured.isolation == .process, let testID = Test.current?.id.description {
            exploreInChild(scenario, testID: testID, sourceLocation: sourceLocation)
            return nil
        }
        if options.replay == nil, let token = configured.replay, !token.fits(scenario: scenario) {
            let note = "skipped '\(scenario)': \(ExplorationOptions.Variable.replay) holds a token recorded for another scenario"
            Issue.record(Comment(rawValue: note), severity: .warning, sourceLocation: sourceLocation)
            return nil
        }
        let report: ExplorationReport
        do {
            report = try run(scenario, options: configured, body)
        } catch {
            Issue.record(Comment(rawValue: "\(error)"), sourceLocation: sourceLocation)
            return nil
        }
        if let failure = report.failure {
            let message = failure.message(testID: Test.current?.id.description)
            if childScenario != nil { reportToParent(message) }
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            Attachment.record(failure.fullReport, named: "harness-\(failure.token.execution).txt", sourceLocation: sourceLocation)
        }
        return report
    }

    /// Explores `body` under `options` (the environment is not read) and returns what it
    /// found, recording nothing: for tests that expect a failure, and for tools. Throws
    /// when `options.replay` holds a token for another scenario.
    public static func run(
        _ scenario: String,
        options: ExplorationOptions,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) throws(ReplayTokenError) -> ExplorationReport {
        if let token = options.replay, !token.fits(scenario: scenario) {
            throw .otherScenario(token: token.scenarioHash, scenario: scenario)
        }
        return Explorer(scenario: scenario, options: options, body: body, testFilter: Test.current?.id.description).run()
    }

    /// Checks an invariant inside a scenario: when `condition` is false, the execution fails
    /// with `message` and is wound down. Outside a controlled execution it traps like
    /// `precondition`.
    public static func check(
        _ condition: @autoclosure () -> Bool,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        guard !condition() else { return }
        let text = message()
        guard let execution = Seam.currentController as? Execution, let thread = Seam.currentThread else {
            preconditionFailure("Harness.check failed outside a controlled execution: \(text)", file: file, line: line)
        }
        execution.fail(.invariant(message: text.isEmpty ? "check failed" : text, thread: thread.rawValue, file: "\(file)", line: line))
    }

    static func runReportingErrors(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            guard let execution = Seam.currentController as? Execution, let thread = Seam.currentThread else { return }
            execution.fail(.threadThrew(thread: thread.rawValue, error: "\(error)"))
        }
    }
}
