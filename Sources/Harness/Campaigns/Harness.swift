import Foundation
import Primitives
import Testing

extension Harness {
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
        Campaign(name, .explore, sourceLocation: sourceLocation).explore(options, body)
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
        let campaign = Campaign(scenario, .run, sourceLocation: #_sourceLocation)
        do {
            try options.validate()
            options.replay = try campaign.replayToken(own: options.replay, setting: "ExplorationOptions.replay") {
                $0.fits(scenario: scenario)
            }
        } catch {
            throw .configuration(error)
        }
        return try execute(scenario, options: options, environment: campaign.environment, body)
    }

    /// Runs the exploration where `options.isolation` says: in this process, or in a child
    /// (which, in the child itself, is this process).
    static func execute(
        _ scenario: String,
        options: ExplorationOptions,
        environment: EnvironmentSnapshot,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) throws(HarnessError) -> ExplorationReport {
        let testID = currentTestID
        if let served = servedOptions(scenario, environment: environment) {
            serveParent(scenario, options: served, testID: testID, environment: environment, body)
        }
        if environment.childScenario != nil {
            return .notExplored(scenario, options: options)
        }
        if options.isolation == .process, let testID {
            return try exploreInChild(scenario, options: options, testID: testID)
        }
        return Explorer(scenario: scenario, options: options, body: body, testID: testID, wording: .forPerson).run()
    }

    /// The running Swift Testing test's ID without its source location (`Module.Suite/name()`):
    /// what replay commands and isolated children select the test by, so a command printed
    /// before an edit above the test still selects it afterwards. `nil` outside a test.
    static var currentTestID: String? {
        guard var id = Test.current?.id else { return nil }
        id.sourceLocation = nil
        return id.description
    }
}
