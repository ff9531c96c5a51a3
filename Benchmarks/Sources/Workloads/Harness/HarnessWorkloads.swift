import Harness
import Synchronization

/// Measurements of the harness itself: how many schedules and scheduling decisions it runs
/// per second, and how soon it finds a one-preemption bug.
public enum HarnessWorkloads {
    /// The strategies measured, with their default parameters.
    public static let strategies: [Strategy] = [.random, .pct(), .exhaustive()]

    /// Explores `scenario` with `strategy` for at least `schedules` schedules (restarting
    /// an exhaustive search that covered everything sooner), its threads run as `threads`,
    /// the schedules on `workers` workers, and returns how many schedules ran, how long they
    /// took, and the most steps one of them took.
    public static func explore(
        _ scenario: HarnessScenario,
        strategy: Strategy,
        schedules: Int,
        threads: ScenarioThreads = .os,
        workers: Int = 1
    ) -> (schedules: Int, elapsed: Duration, maxSteps: Int) {
        var done = 0
        var elapsed = Duration.zero
        var maxSteps = 0
        var run = 0
        while done < schedules {
            let options = ExplorationOptions(
                strategy: strategy, schedules: schedules - done, seed: UInt64(run), threads: threads, workers: workers)
            let report = runReport("\(scenario)", options: options, scenario.body(checked: false))
            precondition(report.failure == nil, "the harness benchmark scenario \(scenario) failed: \(report.failure!)")
            done += report.schedulesRun
            elapsed += report.elapsed
            maxSteps = max(maxSteps, report.coverage.maxSteps)
            run += 1
        }
        return (done, elapsed, maxSteps)
    }

    /// The mean number of scheduling decisions (steps) and of switches between threads in
    /// one execution of `scenario` under `strategy`, over its first `executions` executions.
    ///
    /// The harness reports no step count for executions that pass, so each probe makes the
    /// k-th execution fail at its very end and reads the length of its trace.
    public static func stepsPerSchedule(
        _ scenario: HarnessScenario,
        strategy: Strategy,
        executions: Int
    ) -> (decisions: Double, switches: Double) {
        var decisions = 0
        var switches = 0
        let body = scenario.body(checked: false)
        for failing in 1...executions {
            let started = ExecutionCounter()
            let probe: @Sendable (Scenario) -> Void = { scenario in
                body(scenario)
                let execution = started.next()
                Harness.check(execution != failing, "probe: the end of execution \(execution)")
            }
            let report = runReport(
                "\(scenario) probe", options: ExplorationOptions(strategy: strategy, schedules: failing, seed: 0), probe
            )
            guard let trace = report.failure?.trace else {
                // An exhaustive search covered every schedule in fewer executions.
                return (Double(decisions) / Double(failing - 1), Double(switches) / Double(failing - 1))
            }
            decisions += trace.count
            switches += switchCount(trace.map(\.thread))
        }
        return (Double(decisions) / Double(executions), Double(switches) / Double(executions))
    }

    /// For each seed, the number of schedules `strategy` ran until the first failure of
    /// scenario (b), or `nil` when it found none within `budget` schedules.
    public static func schedulesToFirstFailure(strategy: Strategy, seeds: Range<UInt64>, budget: Int) -> [Int?] {
        let scenario = HarnessScenario.lostUpdate
        return seeds.map { seed in
            let report = runReport(
                "\(scenario)", options: ExplorationOptions(strategy: strategy, schedules: budget, seed: seed),
                scenario.body(checked: true))
            return report.failure == nil ? nil : report.schedulesRun
        }
    }

    /// How often the running thread changes along `threads` (scheduler steps, `nil`, are
    /// not a thread and change nothing).
    static func switchCount(_ threads: [Int?]) -> Int {
        var switches = 0
        var running: Int?
        for case let thread? in threads {
            if let previous = running, previous != thread { switches += 1 }
            running = thread
        }
        return switches
    }

    static func runReport(
        _ name: String,
        options: ExplorationOptions,
        _ body: @escaping @Sendable (Scenario) -> Void
    ) -> ExplorationReport {
        do {
            return try Harness.run(name, options: options, body)
        } catch {
            preconditionFailure("the harness refused the benchmark scenario '\(name)': \(error)")
        }
    }
}

/// Counts executions across a probe's exploration. Only each execution's first thread
/// touches it, after the others have finished, and executions run one after another.
private final class ExecutionCounter: Sendable {
    private let count = Atomic(0)

    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}
