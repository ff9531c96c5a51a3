import Foundation

/// What an exploration runs: its strategy, budget and limits. The environment can
/// override them (see ``applyingEnvironment(_:)``), so one build serves a quick CI run and
/// a long campaign.
public struct ExplorationOptions: Sendable {
    /// How schedules are picked.
    public var strategy: Strategy
    /// How many schedules to run at most (the budget).
    public var schedules: Int
    /// The campaign's seed; `nil` derives a stable one from the scenario's name.
    public var seed: UInt64?
    /// Steps one execution may take before it fails as a livelock or endless loop.
    public var maxSteps: Int
    /// Threads one execution may start.
    public var maxThreads: Int
    /// Whether condition waiters may wake without a signal, as POSIX allows.
    public var spuriousWakeups: Bool
    /// How long a thread may run without reaching a scheduling point before the execution
    /// fails as stalled (real time).
    public var stallTimeout: Duration
    /// A token to replay instead of exploring.
    public var replay: ReplayToken?
    /// How many lane threads run the jobs of the scenario's tasks: tasks interleave at
    /// seam operations only as far as lanes let them run side by side.
    public var executorLanes: Int
    /// Seconds between progress lines on standard error; `nil` prints none.
    public var progressInterval: Double?
    /// Where ``Harness/explore(_:options:sourceLocation:_:)`` runs: in the test's process,
    /// or in a child process that a crash cannot take the test run down with.
    public var isolation: ExplorationIsolation

    /// Options with the given strategy and budget, and defaults for the rest.
    public init(
        strategy: Strategy = .random,
        schedules: Int = 200,
        seed: UInt64? = nil,
        maxSteps: Int = 20_000,
        maxThreads: Int = 64,
        spuriousWakeups: Bool = true,
        stallTimeout: Duration = .seconds(20),
        replay: ReplayToken? = nil,
        progressInterval: Double? = nil,
        executorLanes: Int = 2,
        isolation: ExplorationIsolation = .none
    ) {
        precondition(executorLanes >= 1, "a scenario's executor needs at least one lane, not \(executorLanes)")
        precondition(schedules >= 1, "an exploration needs a budget of at least 1 schedule, not \(schedules)")
        precondition(maxThreads >= 1 && maxThreads < 255, "maxThreads must be between 1 and 254, not \(maxThreads)")
        self.strategy = strategy
        self.schedules = schedules
        self.seed = seed
        self.maxSteps = maxSteps
        self.maxThreads = maxThreads
        self.spuriousWakeups = spuriousWakeups
        self.stallTimeout = stallTimeout
        self.replay = replay
        self.progressInterval = progressInterval
        self.executorLanes = executorLanes
        self.isolation = isolation
    }

    /// The environment variables these options read.
    public enum Variable {
        /// `random`, `pct[:DEPTH]` or `exhaustive[:BOUND]`.
        public static let strategy = "HARNESS_STRATEGY"
        /// The budget: a whole number of schedules.
        public static let schedules = "HARNESS_SCHEDULES"
        /// A seed (decimal, or hexadecimal with `0x`), or `random` for a fresh one.
        public static let seed = "HARNESS_SEED"
        /// The step bound of one execution.
        public static let maxSteps = "HARNESS_MAX_STEPS"
        /// A replay token.
        public static let replay = "HARNESS_REPLAY"
        /// Seconds between progress lines.
        public static let progress = "HARNESS_PROGRESS"
        /// `none` or `process`.
        public static let isolation = "HARNESS_ISOLATION"
    }

    /// These options with whatever the environment sets overriding them; throws an error
    /// naming the variable and what it expected when a value is invalid.
    public func applyingEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(HarnessConfigurationError) -> ExplorationOptions {
        var options = self
        if let text = environment[Variable.strategy] {
            do {
                options.strategy = try Strategy(parsing: text)
            } catch {
                throw .invalid(variable: Variable.strategy, value: text, expected: "random, pct[:DEPTH] or exhaustive[:BOUND]")
            }
        }
        if let text = environment[Variable.schedules] {
            options.schedules = try Self.positive(text, Variable.schedules)
        }
        if let text = environment[Variable.maxSteps] {
            options.maxSteps = try Self.positive(text, Variable.maxSteps)
        }
        if let text = environment[Variable.seed] {
            options.seed = try Self.seed(text)
        }
        if let text = environment[Variable.progress] {
            guard let seconds = Double(text), seconds > 0 else {
                throw .invalid(variable: Variable.progress, value: text, expected: "a positive number of seconds")
            }
            options.progressInterval = seconds
        }
        if let text = environment[Variable.isolation] {
            guard let isolation = ExplorationIsolation(rawValue: text) else {
                throw .invalid(variable: Variable.isolation, value: text, expected: "none or process")
            }
            options.isolation = isolation
        }
        if let text = environment[Variable.replay] {
            do {
                options.replay = try ReplayToken(parsing: text)
            } catch {
                throw .badReplayToken(variable: Variable.replay, error)
            }
        }
        return options
    }

    private static func positive(_ text: String, _ variable: String) throws(HarnessConfigurationError) -> Int {
        guard let value = Int(text), value >= 1 else {
            throw .invalid(variable: variable, value: text, expected: "a whole number of at least 1")
        }
        return value
    }

    private static func seed(_ text: String) throws(HarnessConfigurationError) -> UInt64 {
        if text.lowercased() == "random" { return UInt64.random(in: .min ... .max) }
        let parsed = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let parsed else {
            throw .invalid(variable: Variable.seed, value: text, expected: "a decimal or 0x-hexadecimal number, or 'random'")
        }
        return parsed
    }
}

/// An invalid exploration setting.
public enum HarnessConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `variable` holds `value`, which is not what it expects.
    case invalid(variable: String, value: String, expected: String)
    /// `variable` holds a replay token that cannot be read.
    case badReplayToken(variable: String, ReplayTokenError)

    public var description: String {
        switch self {
        case let .invalid(variable, value, expected):
            "\(variable)='\(value)' is invalid: expected \(expected)"
        case let .badReplayToken(variable, error):
            "\(variable) holds a token that cannot be replayed: \(error)"
        }
    }
}
