import CIdentityWatch
import CShim
import Foundation

/// What an exploration runs: its strategy, budget and limits. The environment can
/// override them (see ``applyingEnvironment(_:)``), so one build serves a quick CI run and
/// a long campaign.
///
/// Every number has a stated range (``Limits``): a value outside it is reported, by
/// ``Harness/explore(_:options:sourceLocation:_:)`` as an issue and by
/// ``Harness/run(_:options:_:)`` as a thrown ``HarnessConfigurationError``, before anything
/// runs. The initializer traps on one, as a programmer error.
public struct ExplorationOptions: Sendable, Codable, CampaignOptions {
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
    /// How far ahead of the virtual clock a deadline may be for its timer to fire while other
    /// work could still run: the clock jumping to the earliest deadline as a choice of the
    /// strategy, taken now and then (an injected event, like a spurious wake-up), so a timeout
    /// can beat a reply that is still being computed. Timers fire in deadline order either way,
    /// and a runnable thread or task loses at most this much virtual time in one step: sleepers
    /// whose deadlines lie further apart than the bound keep their order. `.zero` moves the
    /// clock only when nothing else can run; `nil` lets any deadline fire early. When nothing
    /// else can run the clock moves on regardless, so an hour's sleep still ends at once.
    /// The default is ``defaultTimeoutRaceBound``.
    public var timeoutRaceBound: Duration?
    /// The default ``timeoutRaceBound``: 100 ms, about how long a runnable thread can really
    /// wait for a CPU. Measured on a loaded 2-core Linux VM (a thread sleeping 1 ms in a loop
    /// beside 0 to 16 spinning threads), it woke late by 4–19 ms at the 99th percentile and
    /// 11–79 ms at the 99.9th. So a 10 ms timeout races a reply that comes after 5 ms and some
    /// work, while deadlines a second or more apart (sleepers of seconds, minutes and hours
    /// started together) keep their order.
    public static let defaultTimeoutRaceBound: Duration = .milliseconds(100)
    /// ``timeoutRaceBound`` in whole nanoseconds, as the execution takes it: `nil` for `.zero`
    /// (no early timeout), `UInt64.max` for `nil` (any deadline) or a bound beyond it.
    var timeoutRaceNanoseconds: UInt64? {
        guard let bound = timeoutRaceBound else { return .max }
        guard bound > .zero else { return nil }
        let (seconds, attoseconds) = bound.components
        let (scaled, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowAgain) = scaled.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || overflowAgain ? .max : total
    }

    /// Whether a timeout may fire while other work could still run, with any
    /// ``timeoutRaceBound`` but `.zero`; setting it to `true` lets any deadline fire early
    /// (`nil`), to `false` sets `.zero`.
    public var timeoutsRaceProgress: Bool {
        get { timeoutRaceBound != .zero }
        set { timeoutRaceBound = newValue ? nil : .zero }
    }
    /// How long a thread may go without reaching a scheduling point before the execution
    /// fails as stalled: real time in which it was blocked (not runnable), plus CPU time it
    /// used (busy). Time in which it was runnable but had no CPU does not count, so a loaded
    /// machine delays a stall report but does not cause one. A stalled thread cannot be
    /// reclaimed in the test's process; under ``ExplorationIsolation/process`` the child
    /// process ends with it.
    public var stallTimeout: Duration
    /// A token to replay instead of exploring.
    public var replay: ReplayToken?
    /// How many lane threads run the jobs of the scenario's tasks: tasks interleave at
    /// seam operations only as far as lanes let them run side by side.
    public var executorLanes: Int
    /// Seconds between progress lines on standard error; `nil` prints none.
    public var progressInterval: Double?
    /// Where the exploration runs: in the test's process, or in a child process that a
    /// crash cannot take the test run down with.
    public var isolation: ExplorationIsolation
    /// Whether ``Harness/explore(_:options:sourceLocation:_:)`` keeps a failure it finds in
    /// `.harness-regressions/<TestFile>.txt` beside the test and replays the kept failures
    /// of the scenario before exploring. `HARNESS_KEEP_FAILURES=0` turns writing and
    /// replaying off, `1` writes even where `CI` is set (which otherwise only replays), and
    /// an absolute path keeps them in that folder. Off for tests that expect a failure.
    public var keepsFailures: Bool
    /// What the scenario's threads run as: coroutines, which are faster and the default where
    /// the harness sees code tell OS threads apart (``ScenarioThreads/platformDefault``), or OS
    /// threads (see ``ScenarioThreads/coroutines``).
    public var threads: ScenarioThreads
    /// How many threads run the exploration's schedules side by side, each its own executions
    /// (`HARNESS_WORKERS`). The report is the same for every count, byte for byte but for
    /// ``ExplorationReport/elapsed`` and ``ExplorationReport/workers``: the same schedules
    /// under the same indices and tokens, the same failure (the one of the lowest index; the
    /// schedules after it that workers ran meanwhile are dropped), the same counts. Only a
    /// strategy whose schedules are independent (``Strategy/schedulesAreIndependent``:
    /// random walk and POS) uses more than one; the others, a replay and an isolated child
    /// run on one, and the report says how many ran. The scenario runs on several threads at
    /// once, so it must keep its state within each run of its body. The default, 1, runs
    /// every execution on the calling thread, as before workers existed.
    public var workers: Int
    /// The part of the schedules this run explores when the exploration is split between
    /// machines (``ScheduleShard``; `HARNESS_SHARD=i/n:schedules`); `nil` runs them all. Only
    /// a strategy whose schedules are independent splits; ``validate()`` rejects another.
    /// ``schedules`` stays the budget of the whole exploration.
    public var shard: ScheduleShard?

    /// Options with the given strategy and budget, and defaults for the rest.
    public init(
        strategy: Strategy = .random,
        schedules: Int = 200,
        seed: UInt64? = nil,
        maxSteps: Int = 20_000,
        maxThreads: Int = 64,
        spuriousWakeups: Bool = true,
        timeoutRaceBound: Duration? = ExplorationOptions.defaultTimeoutRaceBound,
        stallTimeout: Duration = .seconds(20),
        replay: ReplayToken? = nil,
        progressInterval: Double? = nil,
        executorLanes: Int = 2,
        isolation: ExplorationIsolation = .none,
        keepsFailures: Bool = true,
        threads: ScenarioThreads = .platformDefault,
        workers: Int = 1,
        shard: ScheduleShard? = nil
    ) {
        self.strategy = strategy
        self.schedules = schedules
        self.seed = seed
        self.maxSteps = maxSteps
        self.maxThreads = maxThreads
        self.spuriousWakeups = spuriousWakeups
        self.timeoutRaceBound = timeoutRaceBound
        self.stallTimeout = stallTimeout
        self.replay = replay
        self.progressInterval = progressInterval
        self.executorLanes = executorLanes
        self.isolation = isolation
        self.threads = threads
        self.keepsFailures = keepsFailures
        self.workers = workers
        self.shard = shard
        preconditionValid()
    }

    /// The ranges every number of the options must lie in.
    public enum Limits {
        /// Schedules per exploration.
        public static let schedules: ClosedRange<Int> = 1...1_000_000_000
        /// Steps per execution: a trace of this many steps must fit in memory.
        public static let maxSteps: ClosedRange<Int> = 1...1_000_000
        /// Threads per execution: a step records its thread in one byte.
        public static let maxThreads: ClosedRange<Int> = 1...254
        /// Lane threads of the scenario's task executor.
        public static let executorLanes: ClosedRange<Int> = 1...16
        /// Seconds of the stall timeout.
        public static let stallTimeoutSeconds: ClosedRange<Double> = 0.01...86_400
        /// Seconds between progress lines.
        public static let progressSeconds: ClosedRange<Double> = 0.000_001...86_400
        /// Workers of one exploration.
        public static let workers: ClosedRange<Int> = 1...64
    }

    /// The environment variables these options read.
    public enum Variable {
        /// `random`, `pct[:DEPTH]`, `exhaustive[:BOUND]`, `pos`, `surw`, `guided` or `portfolio`.
        public static let strategy = Knob.strategy.name
        /// The budget: a whole number of schedules.
        public static let schedules = Knob.schedules.name
        /// A seed (decimal, or hexadecimal with `0x`), or `random` for a fresh one.
        public static let seed = Knob.seed.name
        /// The step bound of one execution.
        public static let maxSteps = Knob.maxSteps.name
        /// A replay token.
        public static let replay = Knob.replay.name
        /// Seconds between progress lines.
        public static let progress = Knob.progress.name
        /// Seconds a thread may run without reaching a scheduling point.
        public static let stallTimeout = Knob.stallTimeout.name
        /// `none` or `process`.
        public static let isolation = Knob.isolation.name
        /// `coroutines` or `os`.
        public static let threads = Knob.threads.name
        /// The file the test run's campaign summary is written to, as JSON, when it ends.
        public static let report = Knob.report.name
        /// Threads that run one exploration's schedules side by side.
        public static let workers = Knob.workers.name
    }

    /// These options with whatever the environment sets overriding them (an empty value is
    /// unset); throws an error naming the variable and what it expected when a value is
    /// invalid or out of range, when `HARNESS_REPORT` names a file that cannot be written (so
    /// a run whose summary would be lost fails before it explores, not after), or when a
    /// `HARNESS_` variable is not a ``Knob``.
    public func applyingEnvironment(
        _ environment: [String: String]
    ) throws(HarnessConfigurationError) -> ExplorationOptions {
        let environment = try Knob.settings(in: environment)
        var options = self
        if let text = environment[Variable.strategy] {
            options.strategy = try Strategy(parsing: text, setting: Variable.strategy)
        }
        if let text = environment[Variable.schedules] {
            options.schedules = try RangedSetting.wholeNumber(text, in: Limits.schedules, Variable.schedules)
        }
        if let text = environment[Variable.maxSteps] {
            options.maxSteps = try RangedSetting.wholeNumber(text, in: Limits.maxSteps, Variable.maxSteps)
        }
        if let text = environment[Variable.seed] {
            options.seed = try HarnessEnvironment.seed(parsing: text)
        }
        if let text = environment[Variable.progress] {
            options.progressInterval = try RangedSetting.number(
                text, in: Limits.progressSeconds, Variable.progress, unit: "seconds")
        }
        if let text = environment[Variable.stallTimeout] {
            options.stallTimeout = .seconds(
                try RangedSetting.number(text, in: Limits.stallTimeoutSeconds, Variable.stallTimeout, unit: "seconds"))
        }
        if let text = environment[Variable.isolation] {
            guard let isolation = ExplorationIsolation(rawValue: text) else {
                throw .invalid(setting: Variable.isolation, value: text, expected: "none or process")
            }
            options.isolation = isolation
        }
        if let text = environment[Variable.threads] {
            guard let threads = ScenarioThreads(rawValue: text) else {
                throw .invalid(setting: Variable.threads, value: text, expected: "coroutines or os")
            }
            options.threads = threads
        }
        if let text = environment[Variable.workers] {
            options.workers = try RangedSetting.wholeNumber(text, in: Limits.workers, Variable.workers)
        }
        if let path = environment[Variable.report] {
            try HarnessEnvironment.checkWritable(path, setting: Variable.report)
        }
        if let text = environment[Variable.replay] {
            do {
                options.replay = try ReplayToken(parsing: text)
            } catch {
                throw .badReplayToken(setting: Variable.replay, error)
            }
        }
        return options
    }

    /// These options with whatever the process's environment sets overriding them, as
    /// ``applyingEnvironment(_:)`` reads them.
    public func applyingEnvironment() throws(HarnessConfigurationError) -> ExplorationOptions {
        try applyingEnvironment(EnvironmentSnapshot.current().variables)
    }

    /// The token in ``replay``.
    var replayToken: ReplayToken? { replay }

    /// These options running `shard`'s schedules, when the strategy's schedules are
    /// independent; `nil` for another strategy.
    func splittingSchedules(_ shard: ScheduleShard) -> ExplorationOptions? {
        guard strategy.schedulesAreIndependent else { return nil }
        var split = self
        split.shard = shard
        return split
    }

    /// Throws an error naming the first setting outside its range (``Limits``).
    public func validate() throws(HarnessConfigurationError) {
        try RangedSetting.check(schedules, in: Limits.schedules, "ExplorationOptions.schedules")
        try RangedSetting.check(maxSteps, in: Limits.maxSteps, "ExplorationOptions.maxSteps")
        try RangedSetting.check(maxThreads, in: Limits.maxThreads, "ExplorationOptions.maxThreads")
        try RangedSetting.check(executorLanes, in: Limits.executorLanes, "ExplorationOptions.executorLanes")
        try RangedSetting.check(workers, in: Limits.workers, "ExplorationOptions.workers")
        if let shard {
            guard shard.isValid else {
                throw .invalid(
                    setting: "ExplorationOptions.shard", value: "\(shard)",
                    expected: "i/n with 1 ≤ i ≤ n ≤ \(ScheduleShard.counts.upperBound)")
            }
            guard strategy.schedulesAreIndependent else {
                throw .invalid(
                    setting: "ExplorationOptions.shard", value: "\(shard)",
                    expected: "a strategy whose schedules are independent (random or pos), not \(strategy)")
            }
        }
        try RangedSetting.check(
            stallTimeout.seconds, in: Limits.stallTimeoutSeconds, "ExplorationOptions.stallTimeout", unit: "seconds")
        if let timeoutRaceBound, timeoutRaceBound < .zero {
            throw .invalid(
                setting: "ExplorationOptions.timeoutRaceBound",
                value: "\(timeoutRaceBound)",
                expected: "a duration of zero or more, or nil for any deadline"
            )
        }
        if let progressInterval {
            try RangedSetting.check(
                progressInterval, in: Limits.progressSeconds, "ExplorationOptions.progressInterval", unit: "seconds")
        }
    }
}

/// Why ``Harness/run(_:options:_:)`` could not explore; its words are in `Report/`
/// (``description``).
public enum HarnessError: Error, Sendable, Hashable {
    /// A setting is invalid, or the replay token does not fit.
    case configuration(HarnessConfigurationError)
    /// The isolated child process ended without a report: `ending` says how.
    case isolatedChildFailed(scenario: String, ending: IsolatedChildEnding)
}

/// What a scenario's threads run as under the deterministic scheduler.
public enum ScenarioThreads: String, Sendable, Hashable, Codable {
    /// Coroutines sharing one OS thread, switched in user space with no system call; the
    /// schedules are the same as on OS threads. A thread that is cancelled, uses
    /// thread-specific storage through the seam (``ThreadLocalValue``), or (where the harness
    /// sees it, ``platformDefault``) calls `pthread_self`, `pthread_getspecific`,
    /// `pthread_setspecific` or `gettid` from the code under test (Foundation's
    /// `Thread.current` included) makes its execution run again on OS threads, and the
    /// exploration goes on there, as its report says (``ExplorationReport/osThreadFallback``).
    /// A build under a sanitizer or for a processor other than x86_64 and arm64 always uses OS
    /// threads. The task executor's lanes are coroutines too where a switch carries the
    /// concurrency runtime's per-thread state (Linux), OS threads elsewhere; threads started
    /// with a C entry (``IOThread``) or with attributes are OS threads regardless. State kept
    /// per OS thread without those calls (C `__thread` variables, the owner's thread ID a
    /// `Synchronization.Mutex` records) is not seen: such code sees one thread, so keep ``os``
    /// for it.
    case coroutines
    /// An OS thread each.
    case os

    /// The default: ``coroutines`` where the harness sees the code under test tell OS threads
    /// apart (Linux with glibc, on x86_64 and arm64, without a sanitizer), ``os`` elsewhere
    /// (Darwin, where a library binds to the system's `pthread_self` whatever the executable
    /// defines).
    public static var platformDefault: ScenarioThreads {
        #if canImport(Darwin)
        return .os
        #elseif canImport(Glibc) || canImport(Musl)
        return cshim_coroutines_supported() && cshim_identity_watch_supported() ? .coroutines : .os
        #else
        #error("ScenarioThreads.platformDefault: unsupported platform")
        #endif
    }
}
