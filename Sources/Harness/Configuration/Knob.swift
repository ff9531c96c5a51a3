/// An environment variable the harness reads: the one table of them. Each says what it holds,
/// what values it accepts, its default, and which front doors read it; the README's tables of
/// variables are checked against this one. A variable set to the empty string is unset, for
/// every knob alike, and a `HARNESS_` variable that is not in the table is an error naming
/// the nearest known one, so a misspelled knob never runs with its default in silence.
public struct Knob: Sendable, Hashable, CustomStringConvertible {
    /// The variable's name.
    public let name: String
    /// What it sets, as the README says it.
    public let meaning: String
    /// The values it accepts.
    public let accepts: String
    /// What applies when it is unset.
    public let defaultValue: String
    /// The front doors that read it.
    public let readBy: Set<FrontDoor>

    /// The entry points of the harness that read the environment.
    public enum FrontDoor: String, Sendable, Hashable, CaseIterable {
        /// ``Harness/explore(_:options:sourceLocation:_:)``.
        case explore
        /// ``Harness/run(_:options:_:)``, which reads the replay token only.
        case run
        /// ``LinearizabilityTest``'s `check` and `run`.
        case generated
        /// ``Harness/stress(_:options:sourceLocation:_:)``, and ``LinearizabilityTest``'s
        /// `stress`.
        case stress
    }

    public var description: String { name }
}

extension Knob {
    private static let explorers: Set<FrontDoor> = [.explore, .generated]

    public static let strategy = Knob(
        name: "HARNESS_STRATEGY",
        meaning: "`random`, `pct[:DEPTH]`, `exhaustive[:PREEMPTION_BOUND]`, `pos`, `surw`, `guided`, `portfolio` "
            + "(see [Strategies](#strategies))",
        accepts: "depth 1–16, bound 0–16",
        defaultValue: "the options' strategy",
        readBy: explorers
    )
    public static let schedules = Knob(
        name: "HARNESS_SCHEDULES",
        meaning: "the budget: schedules per exploration",
        accepts: "1–1,000,000,000",
        defaultValue: "the options' budget",
        readBy: [.explore]
    )
    public static let seed = Knob(
        name: "HARNESS_SEED",
        meaning: "a seed (decimal or `0x…`), or `random` (drawn once per test run)",
        accepts: "0–2^64−1",
        defaultValue: "a hash of the scenario's name",
        readBy: explorers
    )
    public static let maxSteps = Knob(
        name: "HARNESS_MAX_STEPS",
        meaning: "the step bound of one execution",
        accepts: "1–1,000,000",
        defaultValue: "the options' bound",
        readBy: explorers
    )
    public static let replay = Knob(
        name: "HARNESS_REPLAY",
        meaning: "a replay token: run exactly that schedule",
        accepts: "a token this version wrote",
        defaultValue: "none: explore",
        readBy: [.explore, .run, .generated, .stress]
    )
    public static let progress = Knob(
        name: "HARNESS_PROGRESS",
        meaning: "seconds between progress lines on standard error",
        accepts: "0.000001–86,400",
        defaultValue: "no progress lines",
        readBy: explorers
    )
    public static let stallTimeout = Knob(
        name: "HARNESS_STALL_TIMEOUT",
        meaning: "seconds a thread may spend blocked or busy without reaching a scheduling point "
            + "(waiting for a CPU does not count)",
        accepts: "0.01–86,400",
        defaultValue: "20",
        readBy: explorers
    )
    public static let isolation = Knob(
        name: "HARNESS_ISOLATION",
        meaning: "`process`: explore in a child process, so a crash fails the test instead of the run",
        accepts: "`none` or `process`",
        defaultValue: "the options' isolation",
        readBy: [.explore]
    )
    public static let threads = Knob(
        name: "HARNESS_THREADS",
        meaning: "what scenario threads run as (see [Threads as coroutines](#threads-as-coroutines))",
        accepts: "`os` or `coroutines`",
        defaultValue: "`coroutines` on Linux with glibc, `os` on Darwin and under a sanitizer",
        readBy: explorers
    )
    public static let report = Knob(
        name: "HARNESS_REPORT",
        meaning: "a file to write the campaign summary to, as JSON; checked before anything runs",
        accepts: "a file this process can write, in a folder that exists",
        defaultValue: "no file",
        readBy: explorers
    )
    public static let shard = Knob(
        name: "HARNESS_SHARD",
        meaning: "`i/n`: explore only this shard's scenarios of the campaign; `i/n:schedules`: this shard's "
            + "schedules of each `random` or `pos` exploration, and its scenarios of the others "
            + "(see [Campaigns in CI](#campaigns-in-ci))",
        accepts: "1 ≤ i ≤ n ≤ 1,000",
        defaultValue: "every scenario",
        readBy: explorers
    )
    public static let workers = Knob(
        name: "HARNESS_WORKERS",
        meaning: "threads that run one exploration's schedules side by side, with the same findings and tokens "
            + "for every count (`random` and `pos` only; other strategies, replays and isolated explorations "
            + "run on one)",
        accepts: "1–64",
        defaultValue: "the options' workers (1)",
        readBy: explorers
    )
    public static let keepFailures = Knob(
        name: "HARNESS_KEEP_FAILURES",
        meaning: "`0`: neither keep nor replay failures; `1`: keep them even where `CI` is set; "
            + "a folder to keep them in",
        accepts: "`0`, `1` or an absolute path",
        defaultValue: "kept beside the test, except where `CI` is set",
        readBy: [.explore]
    )
    public static let scenarios = Knob(
        name: "HARNESS_SCENARIOS",
        meaning: "how many scenarios a [generated-scenario test](#generated-scenarios) generates",
        accepts: "1–1,000,000",
        defaultValue: "the options' count",
        readBy: [.generated]
    )
    public static let scenarioSchedules = Knob(
        name: "HARNESS_SCENARIO_SCHEDULES",
        meaning: "schedules per generated scenario and per shrink candidate "
            + "(`HARNESS_SCHEDULES` is for hand-written explorations)",
        accepts: "1–1,000,000,000",
        defaultValue: "the options' budget",
        readBy: [.generated]
    )
    public static let stressIterations = Knob(
        name: "HARNESS_STRESS_ITERATIONS",
        meaning: "iterations per stress test",
        accepts: "1–1,000,000,000",
        defaultValue: "the options' iterations",
        readBy: [.stress]
    )
    public static let stressSeconds = Knob(
        name: "HARNESS_STRESS_SECONDS",
        meaning: "the time budget per stress test, in seconds",
        accepts: "0.001–86,400",
        defaultValue: "the options' budget",
        readBy: [.stress]
    )
    public static let stressMaxSeconds = Knob(
        name: "HARNESS_STRESS_MAX_SECONDS",
        meaning: "a cap that makes the time budget adapt: a stress test goes on while new outcomes appear, "
            + "until a whole budget passes without one or the cap is reached (the scale multiplies it too)",
        accepts: "0.001–86,400, no less than the time budget",
        defaultValue: "the options' cap (none: the budget is fixed)",
        readBy: [.stress]
    )
    public static let stressScale = Knob(
        name: "HARNESS_STRESS_SCALE",
        meaning: "multiplies both (after the two above): how nightly runs go longer",
        accepts: "0.001–100,000",
        defaultValue: "1",
        readBy: [.stress]
    )
    public static let stressThreads = Knob(
        name: "HARNESS_STRESS_THREADS",
        meaning: "runner threads at once (each adds the threads its iterations spawn)",
        accepts: "1–256",
        defaultValue: "the options' threads",
        readBy: [.stress]
    )
    public static let stressHangTimeout = Knob(
        name: "HARNESS_STRESS_HANG_TIMEOUT",
        meaning: "seconds an iteration may run before it counts as hung",
        accepts: "0.01–86,400",
        defaultValue: "10",
        readBy: [.stress]
    )
    public static let stressProgress = Knob(
        name: "HARNESS_STRESS_PROGRESS",
        meaning: "seconds between progress lines on standard error; each run then ends with its histogram",
        accepts: "0.000001–86,400",
        defaultValue: "no progress lines",
        readBy: [.stress]
    )
    public static let escalationSchedules = Knob(
        name: "HARNESS_ESCALATION_SCHEDULES",
        meaning: "the escalation's budget; `0` turns escalation off",
        accepts: "0–1,000,000,000",
        defaultValue: "the options' budget",
        readBy: [.stress]
    )

    /// Every knob a user sets, in the order the README lists them.
    public static let all: [Knob] = [
        strategy, schedules, seed, maxSteps, replay, progress, stallTimeout, isolation, threads, report, shard,
        workers, keepFailures, scenarios, scenarioSchedules, stressIterations, stressSeconds, stressScale,
        stressMaxSeconds,
        stressThreads,
        stressHangTimeout, stressProgress, escalationSchedules
    ]

    /// The variables the harness sets for the isolated children it starts, which a user never
    /// sets; known, so the check for misspelled knobs lets them through.
    enum ChildProcess {
        /// The one scenario the child explores.
        static let scenario = "HARNESS_CHILD_SCENARIO"
        /// The argument case of a parameterized test the child runs.
        static let testCase = "HARNESS_CHILD_CASE"
        /// The parent's options, as JSON.
        static let options = "HARNESS_CHILD_OPTIONS"
        /// The parent's seed for `HARNESS_SEED=random`.
        static let randomSeed = "HARNESS_CHILD_RANDOM_SEED"
        /// The file the child records its running schedule in, for the parent to read.
        static let record = "HARNESS_CHILD_RECORD"

        static let all: Set<String> = [scenario, testCase, options, randomSeed, record]
    }
}
