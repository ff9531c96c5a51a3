import Foundation

/// What a ``LinearizabilityTest`` generates and how it explores: how many scenarios, their
/// shape, the schedules per scenario, and how far a failure is shrunk. The environment can
/// override the count (`HARNESS_SCENARIOS`), the schedules per scenario
/// (`HARNESS_SCENARIO_SCHEDULES`) and what ``ExplorationOptions/applyingEnvironment(_:)``
/// reads, except the knobs the table gives to hand-written explorations only (``Knob/readBy``):
/// `HARNESS_SCHEDULES` (their budget: a generated scenario's is `HARNESS_SCENARIO_SCHEDULES`),
/// `HARNESS_ISOLATION` (generated scenarios run in the test's process) and
/// `HARNESS_KEEP_FAILURES` (generated failures are not kept). Those are left unapplied, not
/// refused, since one run holds both kinds of test; a run in which no campaign read a knob it
/// set names it when it ends.
///
/// Every number has a stated range (``Limits``): a value outside it is an error that names
/// the setting, before anything runs.
public struct LinearizabilityOptions: Sendable, CampaignOptions {
    /// How many scenarios to generate and explore (each until it fails).
    public var scenarios: Int
    /// How many threads (or tasks) the parallel part has.
    public var threads: ClosedRange<Int>
    /// How many calls each thread of the parallel part makes.
    public var operationsPerThread: ClosedRange<Int>
    /// How many calls the initial part makes, alone, before the parallel part.
    public var initialOperations: ClosedRange<Int>
    /// How many calls the final part makes, alone, after the parallel part.
    public var finalOperations: ClosedRange<Int>
    /// How each scenario is explored: its strategy, its budget of schedules
    /// (``ExplorationOptions/schedules``, per scenario and per shrink candidate), the
    /// campaign's seed, limits, and a replay token.
    public var exploration: ExplorationOptions
    /// The most shrink candidates explored after a failure; 0 reports the failing scenario
    /// as generated.
    public var shrinkCandidates: Int
    /// The checker every execution's history goes through.
    public var checker: LinearizabilityChecker

    /// Options with the given shape and budget, exploring with `strategy` (the portfolio by
    /// default) from `seed` (by default one derived from the test's name). Traps on a value
    /// out of range, as a programmer error.
    public init(
        scenarios: Int = 10,
        schedulesPerScenario: Int = 100,
        strategy: Strategy = .portfolio,
        seed: UInt64? = nil,
        threads: ClosedRange<Int> = 2...3,
        operationsPerThread: ClosedRange<Int> = 3...5,
        initialOperations: ClosedRange<Int> = 0...3,
        finalOperations: ClosedRange<Int> = 0...3,
        shrinkCandidates: Int = 300,
        replay: ReplayToken? = nil
    ) {
        self.scenarios = scenarios
        self.threads = threads
        self.operationsPerThread = operationsPerThread
        self.initialOperations = initialOperations
        self.finalOperations = finalOperations
        self.shrinkCandidates = shrinkCandidates
        exploration = ExplorationOptions(
            strategy: strategy, schedules: schedulesPerScenario, seed: seed, replay: replay)
        checker = LinearizabilityChecker()
        preconditionValid()
    }

    /// The ranges the options must lie in.
    public enum Limits {
        /// Scenarios per test.
        public static let scenarios: ClosedRange<Int> = 1...1_000_000
        /// Threads of the parallel part: each is a controlled thread.
        public static let threads: ClosedRange<Int> = 1...16
        /// Calls per thread, and in the initial and final parts.
        public static let operations: ClosedRange<Int> = 0...1_000
        /// Shrink candidates explored after a failure.
        public static let shrinkCandidates: ClosedRange<Int> = 0...1_000_000
    }

    /// The environment variables these options read, besides ``ExplorationOptions/Variable``.
    public enum Variable {
        /// How many scenarios to generate.
        public static let scenarios = Knob.scenarios.name
        /// Schedules per scenario and per shrink candidate.
        public static let schedulesPerScenario = Knob.scenarioSchedules.name
    }

    /// These options with whatever the environment sets overriding them; throws an error
    /// naming the variable and what it expected when a value is invalid or out of range.
    public func applyingEnvironment(
        _ environment: [String: String]
    ) throws(HarnessConfigurationError) -> LinearizabilityOptions {
        let environment = try Knob.settings(in: environment)
        var options = self
        // The knobs only a hand-written exploration reads (see ``Knob/readBy``).
        let explorationEnvironment = environment.filter { name, _ in
            Knob.all.first { $0.name == name }.map { $0.readBy.contains(.generated) } ?? true
        }
        options.exploration = try exploration.applyingEnvironment(explorationEnvironment)
        if let text = environment[Variable.scenarios] {
            options.scenarios = try RangedSetting.wholeNumber(text, in: Limits.scenarios, Variable.scenarios)
        }
        if let text = environment[Variable.schedulesPerScenario] {
            options.exploration.schedules = try RangedSetting.wholeNumber(
                text, in: ExplorationOptions.Limits.schedules, Variable.schedulesPerScenario)
        }
        return options
    }

    /// These options with whatever the process's environment sets overriding them, as
    /// ``applyingEnvironment(_:)`` reads them.
    public func applyingEnvironment() throws(HarnessConfigurationError) -> LinearizabilityOptions {
        try applyingEnvironment(EnvironmentSnapshot.current().variables)
    }

    /// The token in the exploration's options.
    var replayToken: ReplayToken? { exploration.replay }

    /// Throws an error naming the first setting outside its range.
    public func validate() throws(HarnessConfigurationError) {
        try exploration.validate()
        try RangedSetting.check(scenarios, in: Limits.scenarios, "LinearizabilityOptions.scenarios")
        try Self.check(threads, within: Limits.threads, "threads")
        try Self.check(operationsPerThread, within: 1...Limits.operations.upperBound, "operationsPerThread")
        try Self.check(initialOperations, within: Limits.operations, "initialOperations")
        try Self.check(finalOperations, within: Limits.operations, "finalOperations")
        try RangedSetting.check(
            shrinkCandidates, in: Limits.shrinkCandidates, "LinearizabilityOptions.shrinkCandidates")
    }

    private static func check(_ value: ClosedRange<Int>, within range: ClosedRange<Int>, _ property: String)
        throws(HarnessConfigurationError)
    {
        guard range.contains(value.lowerBound), range.contains(value.upperBound) else {
            throw .invalid(
                setting: "LinearizabilityOptions.\(property)",
                value: "\(value.lowerBound)...\(value.upperBound)",
                expected: "a range within \(range.lowerBound)...\(range.upperBound)"
            )
        }
    }
}
