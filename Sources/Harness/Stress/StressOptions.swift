import Foundation

/// How long and how wide a stress run goes, and how it escalates a forbidden outcome. The
/// environment can override them (see ``applyingEnvironment(_:)``), so the same suites run
/// briefly in CI and for hours at night.
///
/// Every number has a stated range (``Limits``): a value outside it is reported, by
/// ``Harness/stress(_:options:sourceLocation:_:)`` as an issue and by
/// ``Harness/runStress(_:options:_:)`` as a thrown ``HarnessConfigurationError``, before
/// anything runs. The initializer traps on one, as a programmer error.
public struct StressOptions: Sendable, CampaignOptions {
    /// Iterations to run at most.
    public var iterations: Int
    /// Wall time to run at most; `nil` runs all ``iterations``. A run stops at whichever
    /// limit it reaches first.
    public var timeBudget: Duration?
    /// The cap that makes the time budget adapt; `nil` keeps it fixed. With a cap, a run
    /// goes on while new outcomes appear: it ends once a whole ``timeBudget`` has passed
    /// without an outcome it had not seen before, or at `maxTimeBudget`, whichever comes first
    /// (still within ``iterations``). Needs a ``timeBudget``, and must be at least as long.
    public var maxTimeBudget: Duration?
    /// How many copies of the scenario run at once, each on its own root thread that runs
    /// one iteration after another. Each iteration adds the threads its body spawns, so a
    /// run keeps `threads × (1 + spawned)` scenario threads busy: more than the cores, and
    /// the system preempts them mid-operation.
    public var threads: Int
    /// Where the scenarios' tasks run.
    public var taskExecutor: StressTaskExecutor
    /// How long one iteration may run before it counts as hung, which ends the run.
    public var hangTimeout: Duration
    /// Seconds between progress lines on standard error; `nil` prints none.
    public var progressInterval: Double?
    /// How a forbidden outcome is searched for under the deterministic scheduler; `nil`
    /// does not search.
    public var escalation: EscalationOptions?

    /// Options with the given limits, and defaults for the rest: a run stops after
    /// `iterations` or `timeBudget`, whichever comes first.
    public init(
        iterations: Int = 1_000_000,
        timeBudget: Duration? = .seconds(1),
        maxTimeBudget: Duration? = nil,
        threads: Int = 2,
        taskExecutor: StressTaskExecutor = .dedicated(threads: 2),
        hangTimeout: Duration = .seconds(10),
        progressInterval: Double? = nil,
        escalation: EscalationOptions? = EscalationOptions()
    ) {
        self.iterations = iterations
        self.timeBudget = timeBudget
        self.maxTimeBudget = maxTimeBudget
        self.threads = threads
        self.taskExecutor = taskExecutor
        self.hangTimeout = hangTimeout
        self.progressInterval = progressInterval
        self.escalation = escalation
        preconditionValid()
    }

    /// The ranges every number of the options must lie in.
    public enum Limits {
        /// Iterations per run.
        public static let iterations: ClosedRange<Int> = 1...1_000_000_000
        /// Seconds of the time budget.
        public static let timeBudgetSeconds: ClosedRange<Double> = 0.001...86_400
        /// Root threads running at once.
        public static let threads: ClosedRange<Int> = 1...256
        /// Seconds of the hang timeout.
        public static let hangTimeoutSeconds: ClosedRange<Double> = 0.01...86_400
        /// Seconds between progress lines.
        public static let progressSeconds: ClosedRange<Double> = 0.000_001...86_400
        /// The factor `HARNESS_STRESS_SCALE` multiplies the iterations and the time budget by.
        public static let scale: ClosedRange<Double> = 0.001...100_000
    }

    /// The environment variables these options read.
    public enum Variable {
        /// Iterations per run: a whole number.
        public static let iterations = Knob.stressIterations.name
        /// The time budget per run, in seconds.
        public static let seconds = Knob.stressSeconds.name
        /// The cap on an adaptive time budget, in seconds.
        public static let maxSeconds = Knob.stressMaxSeconds.name
        /// A factor for the iterations and the time budget: how nightly runs go longer.
        public static let scale = Knob.stressScale.name
        /// Root threads running at once.
        public static let threads = Knob.stressThreads.name
        /// Seconds an iteration may run before it counts as hung.
        public static let hangTimeout = Knob.stressHangTimeout.name
        /// Seconds between progress lines.
        public static let progress = Knob.stressProgress.name
        /// Schedules the escalation may run, across its strategies; `0` turns it off.
        public static let escalationSchedules = Knob.escalationSchedules.name
    }

    /// These options with whatever the environment sets overriding them: first the
    /// iterations and the time budget, then `HARNESS_STRESS_SCALE` multiplies both. Throws
    /// an error naming the variable and its range when a value is malformed or out of range.
    public func applyingEnvironment(
        _ environment: [String: String]
    ) throws(HarnessConfigurationError) -> StressOptions {
        let environment = try Knob.settings(in: environment)
        var options = self
        if let text = environment[Variable.iterations] {
            options.iterations = try RangedSetting.wholeNumber(text, in: Limits.iterations, Variable.iterations)
        }
        if let text = environment[Variable.seconds] {
            options.timeBudget = .seconds(
                try RangedSetting.number(text, in: Limits.timeBudgetSeconds, Variable.seconds, unit: "seconds"))
        }
        if let text = environment[Variable.maxSeconds] {
            options.maxTimeBudget = .seconds(
                try RangedSetting.number(text, in: Limits.timeBudgetSeconds, Variable.maxSeconds, unit: "seconds"))
        }
        if let text = environment[Variable.scale] {
            let scale = try RangedSetting.number(text, in: Limits.scale, Variable.scale, unit: "")
            options.iterations = min(
                max(Int((Double(options.iterations) * scale).rounded()), 1), Limits.iterations.upperBound)
            options.timeBudget = options.timeBudget.map { Self.scaled($0, by: scale) }
            options.maxTimeBudget = options.maxTimeBudget.map { Self.scaled($0, by: scale) }
        }
        if let text = environment[Variable.threads] {
            options.threads = try RangedSetting.wholeNumber(text, in: Limits.threads, Variable.threads)
        }
        if let text = environment[Variable.hangTimeout] {
            options.hangTimeout = .seconds(
                try RangedSetting.number(text, in: Limits.hangTimeoutSeconds, Variable.hangTimeout, unit: "seconds"))
        }
        if let text = environment[Variable.progress] {
            options.progressInterval = try RangedSetting.number(
                text, in: Limits.progressSeconds, Variable.progress, unit: "seconds")
        }
        if let text = environment[Variable.escalationSchedules] {
            let range = 0...EscalationOptions.Limits.schedules.upperBound
            let schedules = try RangedSetting.wholeNumber(text, in: range, Variable.escalationSchedules)
            if schedules == 0 {
                options.escalation = nil
            } else {
                var escalation = options.escalation ?? EscalationOptions()
                escalation.schedules = schedules
                options.escalation = escalation
            }
        }
        return options
    }

    /// `budget` times `scale`, within ``Limits/timeBudgetSeconds``.
    private static func scaled(_ budget: Duration, by scale: Double) -> Duration {
        .seconds(
            min(max(budget.seconds * scale, Limits.timeBudgetSeconds.lowerBound), Limits.timeBudgetSeconds.upperBound))
    }

    /// These options with whatever the process's environment sets overriding them, as
    /// ``applyingEnvironment(_:)`` reads them.
    public func applyingEnvironment() throws(HarnessConfigurationError) -> StressOptions {
        try applyingEnvironment(EnvironmentSnapshot.current().variables)
    }

    /// When the run's time is up; `nil` without a time budget.
    var timeLimit: StressTimeBudget? {
        timeBudget.map { StressTimeBudget(budget: $0, cap: maxTimeBudget) }
    }

    /// None: a stress run replays nothing.
    var replayToken: ReplayToken? { nil }

    /// Throws an error naming the first setting outside its range (``Limits``).
    public func validate() throws(HarnessConfigurationError) {
        try RangedSetting.check(iterations, in: Limits.iterations, "StressOptions.iterations")
        if let timeBudget {
            try RangedSetting.check(
                timeBudget.seconds, in: Limits.timeBudgetSeconds, "StressOptions.timeBudget", unit: "seconds")
        }
        if let maxTimeBudget {
            guard let timeBudget else {
                throw .invalid(
                    setting: "StressOptions.maxTimeBudget", value: "\(maxTimeBudget.seconds) seconds",
                    expected: "nil while StressOptions.timeBudget is nil")
            }
            try RangedSetting.check(
                maxTimeBudget.seconds, in: timeBudget.seconds...Limits.timeBudgetSeconds.upperBound,
                "StressOptions.maxTimeBudget", unit: "seconds (no less than StressOptions.timeBudget)")
        }
        try RangedSetting.check(threads, in: Limits.threads, "StressOptions.threads")
        if case .dedicated(let threads) = taskExecutor {
            try RangedSetting.check(threads, in: StressTaskExecutor.threadsRange, "StressOptions.taskExecutor threads")
        }
        try RangedSetting.check(
            hangTimeout.seconds, in: Limits.hangTimeoutSeconds, "StressOptions.hangTimeout", unit: "seconds")
        if let progressInterval {
            try RangedSetting.check(
                progressInterval, in: Limits.progressSeconds, "StressOptions.progressInterval", unit: "seconds")
        }
        try escalation?.validate()
    }
}
