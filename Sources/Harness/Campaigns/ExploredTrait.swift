import Foundation
import Primitives
import Testing

/// A trait that runs a test under the harness: the test's own body, `async` or not, runs as
/// the root task of a scenario, once per schedule, and the test fails as
/// ``Harness/explore(_:options:sourceLocation:_:)`` fails, with one issue carrying the shrunk
/// schedule, the token and the replay command.
///
/// ```swift
/// @Test(.explored(schedules: 500)) func searchShowsTheLatestQuery() async {
///     let model = SearchModel()
///     await model.type("swift", serverLatency: .milliseconds(300))
///     await Harness.waitUntilQuiet()
///     #expect(await model.shown == "results for swift")
/// }
/// ```
///
/// An `#expect` or `#require` that fails inside a schedule, or an error the body throws, fails
/// that schedule at the issue's place; the issues of single schedules are listed as known
/// issues (in the child process, whose output is not shown), and only the exploration's failure
/// fails the test. The scenario is named after the test, so the replay command selects it; the
/// environment overrides the options as it does for `explore`.
///
/// The test always runs isolated, in a child process (``ExplorationIsolation/process``, whatever
/// the options say; `HARNESS_ISOLATION=none` is an error): there the harness owns the process's
/// executors, so `Task {}`, `Task.detached`, `MainActor` code and system-clock sleeps run under
/// it, and a schedule the harness winds down, leaving its tasks suspended, ends with the child.
/// (In the test's process such a task would outlive the test body it holds, which Swift
/// Testing lends the trait only for the duration of the test.) On a suite, it applies to each
/// of the suite's tests.
public struct ExploredTrait: TestTrait, SuiteTrait, TestScoping {
    /// The options every exploration of the test starts from.
    public var options: ExplorationOptions

    /// Tells this trait from another with the same options: of a suite's trait and a test's
    /// own, only the test's applies.
    private let identity = Identity()

    private final class Identity: Sendable {}

    init(options: ExplorationOptions) { self.options = options }

    /// Applies to each test of a suite it is given to.
    public var isRecursive: Bool { true }

    /// Scopes test cases only, a suite's own scope running once, as Swift Testing runs it; and
    /// only when it is the test's nearest `.explored` (Swift Testing lists a test's own traits
    /// after those it inherits).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        let nearest = test.traits.last { $0 is ExploredTrait } as? ExploredTrait
        return testCase == nil || nearest?.identity !== identity ? nil : self
    }

    /// Explores `function`, the test's body, on the threads of a dedicated executor, while
    /// the test's task makes each schedule's root task, which so inherits the test's
    /// task-local values (Swift Testing's current test and its issue handling).
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let campaign = Campaign(nil, .explore, sourceLocation: test.sourceLocation)
        if let isolation = campaign.environment[.isolation], isolation != ExplorationIsolation.process.rawValue {
            let error = HarnessConfigurationError.invalid(
                setting: Knob.isolation.name,
                value: isolation,
                expected: "process: a test with the .explored trait always runs in a child process"
            )
            return campaign.recordIssue("\(error)")
        }
        var isolated = options
        isolated.isolation = .process
        let options = isolated
        // One worker explores, blocking it; the other makes the root tasks.
        let workers = StressTaskPool(threads: 2)
        defer { workers.close() }
        let maker = TaskMaker()
        // `function` does not outlive this scope: here the exploration runs in a child process,
        // which never runs it; the child serves the exploration and exits inside `explore`, its
        // wound-down schedules' root tasks still holding it.
        await withoutActuallyEscaping(function) { function in
            await withTaskGroup { group in
                group.addTask(executorPreference: workers) { maker.serve() }
                group.addTask(executorPreference: workers) {
                    defer { maker.close() }
                    campaign.explore(options) { scenario in
                        scenario.task(name: test.name, createdBy: maker.make) {
                            try await Self.failingSchedule(at: test.sourceLocation, function)
                        }
                        scenario.joinAll()
                    }
                }
            }
        }
    }

    /// Runs `function`, turning each issue it records, and an error it throws, into the
    /// failure of the running execution at the issue's place, listed as a known issue. Off
    /// the execution's threads an issue is recorded as it is, and an error is rethrown.
    private static func failingSchedule(
        at sourceLocation: SourceLocation,
        _ function: @escaping @Sendable () async throws -> Void
    ) async throws {
        try await withKnownIssue(isIntermittent: true, sourceLocation: sourceLocation) {
            try await function()
        } when: {
            true
        } matching: { issue in
            let place = issue.sourceLocation ?? sourceLocation
            return Harness.failRunningExecution("\(issue)", file: place.fileID, line: UInt(place.line))
        }
    }
}

extension Trait where Self == ExploredTrait {
    /// Runs the test under the harness with default options (see ``ExploredTrait``).
    public static var explored: Self { explored() }

    /// Runs the test under the harness with `options` (see ``ExploredTrait``).
    public static func explored(_ options: ExplorationOptions) -> Self { ExploredTrait(options: options) }

    /// Runs the test under the harness for at most `schedules` schedules picked by `strategy`
    /// from `seed` (see ``ExploredTrait``).
    public static func explored(schedules: Int = 200, strategy: Strategy = .random, seed: UInt64? = nil) -> Self {
        ExploredTrait(options: ExplorationOptions(strategy: strategy, schedules: schedules, seed: seed))
    }
}
