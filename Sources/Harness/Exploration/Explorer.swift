import CShim
import Foundation
import Primitives

/// Runs the executions of one exploration: one after another, or on several workers at once
/// (``ExplorationOptions/workers``) with the same report.
struct Explorer {
    let scenario: String
    let options: ExplorationOptions
    /// The Swift Testing test that runs the exploration, for replay commands.
    let testID: String?
    /// What the progress lines and a crash print: a crash the replay command, or (in an
    /// isolated child) a line the parent reads.
    let wording: ExplorationWording
    /// Counts the steps taken, for stall detection and an isolated child's heartbeat.
    var activity = ExplorationActivity()
    /// The file the running schedule is recorded in, shared with an isolated child's parent,
    /// which reads it after the child died; `nil`: memory of the process's own.
    var scheduleRecordFile: String?
    /// The code of the generated scenario explored, carried by every token it records
    /// (``ReplayToken/generatedScenario``); `nil` for a scenario written by hand.
    var generatedScenario: String?
    /// Whether a failure's schedule is shrunk (``shrink(_:decisions:naming:)``). Off where
    /// only whether the scenario fails matters: a ``LinearizabilityTest`` exploring shrink
    /// candidates of a scenario shrinks the schedule of the smallest only, and a stress
    /// escalation searches past failures it does not look for.
    var shrinksSchedules = true
    /// What the executions run on the calling thread share and reuse (all of them with one
    /// worker, the shrinking ones with more); closed when ``run()`` returns.
    private let host = ExecutionHost()
    /// The first schedule that needed OS threads, on any worker.
    private let osThreadFallback = OSThreadFallbackLog()
    /// The exploration's body, which thread 0 of every execution runs (``root()``).
    private let body: @Sendable (Scenario) throws -> Void
    /// The options' ``ExplorationOptions/timeoutRaceNanoseconds``, worked out once, not for
    /// each execution's limits.
    private let timeoutRace: UInt64?

    /// An exploration of `body`, the scenario named `scenario`, for the test `testID`.
    init(
        scenario: String,
        options: ExplorationOptions,
        body: @escaping @Sendable (Scenario) throws -> Void,
        testID: String?,
        wording: ExplorationWording
    ) {
        self.scenario = scenario
        self.options = options
        self.testID = testID
        self.wording = wording
        timeoutRace = options.timeoutRaceNanoseconds
        self.body = body
    }

    /// What thread 0 of one worker's executions runs: the exploration's body, given a
    /// scenario, whose threads are then joined. Made once for each worker's executions, not
    /// for each execution; an execution that ends with its threads joined leaves its scenario
    /// to the next (``ScenarioSpare``).
    private func root() -> @Sendable () -> Void {
        let body = body
        let spare = ScenarioSpare()
        return {
            let scenario = spare.take()
            Harness.runReportingErrors { try body(scenario) }
            scenario.joinAll()
            spare.keep(scenario)
        }
    }

    /// The strategy that searches, and the name its schedules carry in tokens: a replay's is
    /// the strategy that recorded the token (named as the token spells it), seeded as it
    /// was, which follows the token and searches on where the code leaves it
    /// (``ReplayThenSearch``); an exploration's is its options'. A token whose strategy this
    /// harness does not know is followed, and then searched on with the options' strategy,
    /// under that strategy's name.
    private var searchStrategy: (strategy: Strategy, name: String) {
        if let replay = options.replay, let recorded = try? Strategy(tag: replay.strategy) {
            return (recorded, replay.strategy)
        }
        return (options.strategy, options.strategy.tag)
    }

    /// Runs the exploration; call once per explorer. The calling thread runs on one CPU
    /// meanwhile (``onOneCPU(_:)``), with the threads of the executions it runs.
    func run() -> ExplorationReport {
        defer { host.close() }
        return Self.onOneCPU { cpu, allowed in
            host.cpu = cpu
            return explore(workerCPUs: allowed)
        }
    }

    private func explore(workerCPUs: [Int32]?) -> ExplorationReport {
        let seed = options.replay?.seed ?? options.seed ?? UInt64(ReplayToken.hash(scenario))
        let searching = searchStrategy
        let naming = ScheduleNaming(
            scenario: scenario,
            strategy: searching.name,
            seed: seed,
            generatedScenario: generatedScenario
        )
        // A replay follows its token; where the code no longer does, each further schedule
        // keeps the token's prefix and searches on from there, up to the same budget.
        let budget = options.schedules
        let shard = options.replay == nil ? options.shard ?? .whole : .whole
        let planned = shard.scheduleCount(budget: budget)
        let start = ContinuousClock.now
        var progress = ProgressMeter(
            label: wording.progressLabel(scenario, searching.strategy, seed),
            interval: options.progressInterval
        )
        let workers = workerCount(searching.strategy, schedules: planned)
        var tally: ScheduleTally
        var exhausted = false
        var divergence: ReplayFollower.Divergence?
        if workers > 1 {
            tally = runOnWorkers(
                workers, cpus: workerCPUs, strategy: searching.strategy, seed: seed, naming: naming, shard: shard,
                planned: planned
            ) { executed in
                progress.update { wording.progressLine(.schedules(done: executed, budget: planned, failures: 0), $0) }
            }
        } else {
            var scheduler = searching.strategy.makeScheduler(seed: seed)
            if let replay = options.replay {
                scheduler = ReplayThenSearch(following: replay.steps, then: scheduler)
            }
            let search = SearchOnOneWorker(
                tally: ScheduleTally(budget: planned), strategy: StrategyCell(scheduler), progress: progress)
            let watch = RunnerWatch()
            let replaying = options.replay != nil
            let stalled: (ExecutionRecord, Int) -> Void = { _ = search.add($0, execution: $1, replaying: replaying) }
            watch.start(cpu: host.cpu, ifStalled: stalled) { runner in
                for position in 0..<planned {
                    let index = shard.schedule(at: position)
                    let executionIndex = options.replay.map { $0.execution + index } ?? index
                    guard search.strategy.value.beginExecution(executionIndex) else {
                        search.exhausted = true
                        return
                    }
                    runner.tag = executionIndex
                    guard
                        let execution = execute(
                            search.strategy, naming: naming, execution: executionIndex, on: host, runner: runner)
                    else { return }
                    guard search.add(execution, execution: executionIndex, replaying: replaying) else {
                        return
                    }
                    search.strategy.value.noteInterleaving(execution.fingerprint)
                    search.strategy.value.endExecution(steps: execution.stepCount)
                    search.progress.update {
                        wording.progressLine(.schedules(done: search.tally.executed, budget: planned, failures: 0), $0)
                    }
                }
                if options.replay == nil {
                    search.exhausted = !search.strategy.value.beginExecution(budget)
                }
            }
            watch.awaitRunners(stallTimeout: options.stallTimeout)
            tally = search.tally
            exhausted = search.exhausted
            divergence = search.divergence
            progress = search.progress
        }
        let executed = tally.executed
        let failure = tally.failure.map { failing in
            activity.whileComputing {
                let reproduction = options.replay.map { _ in
                    divergence.map { ReplayReproduction.prefixAndSearch(divergence: $0, schedules: executed) }
                        ?? .exact
                }
                let found = harnessFailure(failing.record, execution: failing.execution, naming: naming, reproduction)
                let shown =
                    options.replay == nil && shrinksSchedules
                    ? shrink(found, decisions: failing.record.decisions, naming: naming)
                    : (failure: found, decisions: failing.record.decisions)
                return withAsyncStacks(shown.failure, decisions: shown.decisions, naming: naming)
            }
        }
        let notReproduced = options.replay.flatMap { replay in
            failure != nil
                ? nil
                : FailureNotReproduced(
                    tokenSteps: replay.steps.count,
                    divergence: divergence,
                    schedulesRun: executed
                )
        }
        progress.finish {
            wording.progressLine(.schedules(done: executed, budget: planned, failures: failure == nil ? 0 : 1), $0)
        }
        return ExplorationReport(
            scenario: scenario,
            strategy: searching.strategy,
            seed: seed,
            schedulesRun: executed,
            exhausted: exhausted,
            failure: failure,
            notReproduced: notReproduced,
            lastSchedule: tally.last.map { naming.token(execution: $0.execution, trace: $0.record.trace) },
            elapsed: ContinuousClock.now - start,
            coverage: tally.coverageSummary,
            workers: workers,
            osThreadFallback: osThreadFallback.first
        )
    }

    /// How many workers run `schedules` schedules of `strategy`: the options' count when the
    /// strategy's schedules are independent, at most one a schedule; one for another
    /// strategy, for a replay (which stops where the code follows its token) and in an
    /// isolated child (whose parent reads the one schedule it runs from its file).
    private func workerCount(_ strategy: Strategy, schedules: Int) -> Int {
        guard strategy.schedulesAreIndependent, options.replay == nil, scheduleRecordFile == nil else { return 1 }
        return max(1, min(options.workers, schedules))
    }

    /// The failure of execution `index`, which `record` ended.
    private func harnessFailure(
        _ record: ExecutionRecord,
        execution index: Int,
        naming: ScheduleNaming,
        _ reproduction: ReplayReproduction?
    ) -> HarnessFailure {
        guard let reason = record.failure else { preconditionFailure("execution \(index) did not fail") }
        return HarnessFailure(
            scenario: scenario,
            reason: reason,
            token: naming.token(execution: index, trace: record.trace),
            trace: record.trace,
            testID: testID,
            taskNames: record.taskNames,
            preemptions: record.preemptions,
            reproduction: reproduction,
            taskJobPlaces: record.taskJobPlaces,
            taskCreations: record.taskCreationPlaces
        )
    }

    /// Runs one execution of the scenario under `strategy` (which may follow a recorded
    /// schedule first), its coroutines on a thread of `host`'s pool while the calling thread
    /// watches it. A shrinking one re-runs a failure already told apart from an escape, so it
    /// gives no grace to jobs from outside the harness; one drawn for a report reads its
    /// tasks' whole async stacks (``ExecutionLimits/readsAsyncStacks``).
    func execute(
        _ strategy: StrategyCell,
        naming: ScheduleNaming,
        execution index: Int,
        on host: ExecutionHost,
        shrinking: Bool,
        readingAsyncStacks: Bool = false
    ) -> ExecutionRecord {
        guard
            let record = execute(
                strategy, naming: naming, execution: index, on: host, runner: nil, shrinking: shrinking,
                readingAsyncStacks: readingAsyncStacks)
        else { preconditionFailure("an execution its own thread watched was taken over") }
        return record
    }

    /// Runs one execution of the scenario under `strategy` (which may follow a recorded
    /// schedule first), on `runner` (the calling thread, ``Execution/run(_:on:)``) when given;
    /// `nil` when the runner's watcher found it stalled and took it over. An execution whose
    /// coroutines needed OS threads runs again on OS threads, as do the exploration's
    /// executions after it: the schedule is the same either way.
    func execute(
        _ strategy: StrategyCell,
        naming: ScheduleNaming,
        execution index: Int,
        on host: ExecutionHost,
        runner: ExecutionRunner?,
        shrinking: Bool = false,
        readingAsyncStacks: Bool = false
    ) -> ExecutionRecord? {
        let texts = host.texts(execution: index) { number in
            let tokenPrefix = naming.tokenText(execution: number)
            let crash = wording.crashText(scenario, tokenPrefix, testID)
            return (tokenPrefix, crash.prefix, crash.suffix)
        }
        var limits = limits(shrinking: shrinking, cpu: host.cpu)
        limits.readsAsyncStacks = readingAsyncStacks
        // What an execution run again on OS threads starts from: the strategy restarted, or
        // a copy of it made before the execution changed it
        // (``SchedulingStrategy/restartsByBeginningAgain``).
        let start = strategy.value.restartsByBeginningAgain ? nil : strategy.value
        while true {
            let setting = host.setting {
                ExecutionSetting(
                    scenario: root(),
                    threadPool: host.threadPool,
                    coroutineStacks: options.threads == .coroutines ? host.coroutineStacks : nil,
                    activity: activity.counter(forWorker: host.worker),
                    storage: host.recordStorage,
                    record: host.scheduleRecord(
                        stepCapacity: Execution.stepByteCapacity(limits), file: scheduleRecordFile),
                    texts: texts
                )
            }
            var plan = ExecutionPlan(setting: setting, strategy: strategy, limits: limits)
            let ran: ExecutionRecord?
            if let runner {
                // On its runner an execution ends before the next begins: those with
                // coroutines take turns with one handoff.
                if setting.coroutineStacks != nil {
                    plan.reusedHandoff = host.reusableHandoff(limits)
                }
                ran = host.run(plan, on: runner)
            } else {
                ran = Execution.run(plan)
            }
            guard let record = ran else { return nil }
            guard let reason = record.needsOSThreads, host.coroutineStacks != nil else { return record }
            host.moveToOSThreads()
            osThreadFallback.note(OSThreadFallback(schedule: index, reason: reason))
            if let start {
                strategy.value = start
            } else if !strategy.value.beginExecution(index) {
                preconditionFailure(
                    "a strategy that restarts by beginning again had no execution \(index) the second time")
            }
        }
    }

    /// The failure with its schedule shrunk to fewer preemptions, and so fewer steps. First
    /// its preemptions are taken out one at a time (``ScheduleScript``), each removal kept
    /// when the execution still fails the same way (``ExecutionFailure/shrinkingKey``), until
    /// no single removal does; then bounded exhaustive search looks for the same failure
    /// with fewer preemptions still, fewest first, ``shrinkingSearchBudget`` schedules a
    /// bound. Without a preemption the threads run to completion, in order. A failure that
    /// cannot be re-run safely (a stall, a crash) stays as it is.
    private func shrink(_ failure: HarnessFailure, decisions: [ScheduleDecision], naming: ScheduleNaming)
        -> (failure: HarnessFailure, decisions: [ScheduleDecision])
    {
        guard let key = failure.reason.shrinkingKey, failure.preemptions > 0 else { return (failure, decisions) }
        func failsTheSameWay(_ execution: ExecutionRecord) -> Bool {
            execution.failure?.shrinkingKey == key
        }
        var shrunk: ExecutionRecord?
        var script = ScheduleScript(decisions)
        var removed = true
        while removed {
            removed = false
            for point in script.preemptionPoints {
                let candidate = execute(
                    StrategyCell(ScriptedSchedule(script.removingPreemption(point))),
                    naming: naming,
                    execution: failure.token.execution,
                    on: host,
                    shrinking: true
                )
                guard failsTheSameWay(candidate) else { continue }
                script = ScheduleScript(candidate.decisions)
                shrunk = candidate
                removed = true
                break
            }
        }
        search: for bound in 0..<(shrunk?.preemptions ?? failure.preemptions) {
            let search = StrategyCell(BoundedExhaustive(preemptionBound: bound))
            for index in 0..<Self.shrinkingSearchBudget {
                guard search.value.beginExecution(index) else { break }
                let candidate = execute(
                    search,
                    naming: naming,
                    execution: failure.token.execution,
                    on: host,
                    shrinking: true
                )
                if failsTheSameWay(candidate), candidate.preemptions < (shrunk?.preemptions ?? failure.preemptions) {
                    shrunk = candidate
                    break search
                }
                search.value.endExecution(steps: candidate.stepCount)
            }
        }
        guard let execution = shrunk, let reason = execution.failure else { return (failure, decisions) }
        let candidate = HarnessFailure(
            scenario: scenario,
            reason: reason,
            token: naming.token(execution: failure.token.execution, trace: execution.trace),
            trace: execution.trace,
            testID: testID,
            taskNames: execution.taskNames,
            preemptions: execution.preemptions,
            shrunkFrom: ShrinkOrigin(steps: failure.shownStepCount, preemptions: failure.preemptions),
            taskJobPlaces: execution.taskJobPlaces,
            taskCreations: execution.taskCreationPlaces
        )
        // Fewer preemptions, or as many in fewer of the steps a report shows.
        let better =
            execution.preemptions < failure.preemptions
            || execution.preemptions == failure.preemptions && candidate.shownStepCount < failure.shownStepCount
        return better ? (candidate, execution.decisions) : (failure, decisions)
    }

    /// The failure, whose execution took `decisions`, with its tasks' places read from their
    /// whole async stacks (``TaskJobPoints/Stacks``): its schedule is run once more reading
    /// them, and they are kept when that run fails the same way in the same steps. Only a
    /// failure in which lanes ran jobs, and that can be re-run safely (as for shrinking).
    private func withAsyncStacks(
        _ failure: HarnessFailure,
        decisions: [ScheduleDecision],
        naming: ScheduleNaming
    ) -> HarnessFailure {
        guard let key = failure.reason.shrinkingKey, failure.trace.contains(where: { $0.kind == .takeJob }) else {
            return failure
        }
        let again = execute(
            StrategyCell(ScriptedSchedule(ScheduleScript(decisions))),
            naming: naming,
            execution: failure.token.execution,
            on: host,
            shrinking: true,
            readingAsyncStacks: true
        )
        guard again.failure?.shrinkingKey == key, again.trace == failure.trace else { return failure }
        return failure.withTaskJobPlaces(again.taskJobPlaces)
    }

    /// How many schedules shrinking's exhaustive search runs at each preemption bound.
    static let shrinkingSearchBudget = 200

    /// The execution limits the options set. A resume from outside the harness, for tasks
    /// that may get one (``ForeignWakeup/possible``), gets a second in the test's own process,
    /// where the platform's executors run what escapes; a tenth of one where the harness owns
    /// the executors, and none while shrinking. The execution's threads are pinned to `cpu`,
    /// and to none when `nil`.
    private func limits(shrinking: Bool, cpu: Int32?) -> Execution.Limits {
        var limits = Execution.Limits()
        limits.foreignJobGrace = shrinking ? .zero : ProcessExecutors.areTaken ? .milliseconds(100) : .seconds(1)
        limits.maxSteps = options.maxSteps
        limits.maxThreads = options.maxThreads
        limits.spuriousWakeups = options.spuriousWakeups
        limits.earlyTimeoutWithin = timeoutRace
        limits.stallTimeout = options.stallTimeout
        limits.executorLanes = options.executorLanes
        if let cpu {
            limits.cpu = cpu
            limits.spinsBeforeSleeping = 0
        }
        return limits
    }
}

/// What names the schedules of one exploration in tokens.
struct ScheduleNaming {
    let scenario: String
    let strategy: String
    let seed: UInt64
    /// The code of the generated scenario explored, if it is one.
    let generatedScenario: String?

    /// The text of execution `execution`'s token before its steps.
    func tokenText(execution: String) -> String {
        ReplayToken.textBeforeSteps(
            scenarioHash: ReplayToken.hash(scenario), strategy: strategy, seed: seed, execution: execution,
            generatedScenario: generatedScenario)
    }

    /// The token of execution `index`, which took the steps of `trace`.
    func token(execution index: Int, trace: [TraceStep]) -> ReplayToken {
        ReplayToken(
            scenario: scenario,
            strategy: strategy,
            seed: seed,
            execution: index,
            steps: trace.map(EncodedStep.init),
            generatedScenario: generatedScenario
        )
    }
}

/// What one exploration found.
public struct ExplorationReport: Sendable, Codable {
    /// The scenario's name.
    public let scenario: String
    /// The strategy it ran.
    public let strategy: Strategy
    /// The campaign's seed.
    public let seed: UInt64
    /// How many schedules ran.
    public let schedulesRun: Int
    /// Whether the strategy covered every schedule it can pick: an exhaustive search every
    /// schedule within its bound, spurious wake-ups and job orders included. Never true for
    /// a probabilistic strategy or the portfolio.
    public let exhausted: Bool
    /// The first failure, if any; exploration stops there.
    public let failure: HarnessFailure?
    /// When the exploration replayed a token: that its failure did not happen again, and how
    /// far the code followed the token. `nil` when it did, or when nothing was replayed.
    public let notReproduced: FailureNotReproduced?
    /// The token of the last schedule run, failed or not: a passing schedule worth keeping
    /// as a regression can be replayed with it.
    public let lastSchedule: ReplayToken?
    /// The wall time the exploration took.
    public let elapsed: Duration
    /// How much of the scenario's interleavings the schedules covered.
    public let coverage: Coverage
    /// How many workers ran the schedules (``ExplorationOptions/workers``): the options'
    /// count, at most one a schedule, for a strategy whose schedules are independent; 1
    /// otherwise. Nothing else in the report depends on it but ``elapsed``.
    public let workers: Int
    /// That the exploration asked for coroutines and went on on OS threads from a schedule
    /// that needed them (``ExplorationOptions/threads``); `nil` when it did not.
    public var osThreadFallback: OSThreadFallback? = nil

    /// Schedules per second of wall time.
    public var schedulesPerSecond: Double {
        elapsed.seconds > 0 ? Double(schedulesRun) / elapsed.seconds : 0
    }
}

/// The first schedule of an exploration that needed OS threads, as its workers note them.
final class OSThreadFallbackLog: Sendable {
    private let fallback = DirectlyLocked<OSThreadFallback?>(nil)

    /// Keeps `fallback` if its schedule is the lowest so far.
    func note(_ fallback: OSThreadFallback) {
        self.fallback.withLock { kept in
            if kept.map({ fallback.schedule < $0.schedule }) ?? true { kept = fallback }
        }
    }

    var first: OSThreadFallback? { fallback.withLock { $0 } }
}

/// The state of a search on one worker: its runner's, and its watcher's once the runner's
/// last execution stalled and the watcher took it over (the runner, stuck, touches it no
/// more). Touched by one thread at a time, so no two accesses overlap: exempt from dynamic
/// exclusivity checking, which took two look-ups an execution.
private final class SearchOnOneWorker: @unchecked Sendable {
    @exclusivity(unchecked) var tally: ScheduleTally
    let strategy: StrategyCell
    @exclusivity(unchecked) var progress: ProgressMeter
    @exclusivity(unchecked) var exhausted = false
    /// Where the code first left a replayed token, in the first execution that did.
    @exclusivity(unchecked) var divergence: ReplayFollower.Divergence?

    init(tally: ScheduleTally, strategy: StrategyCell, progress: ProgressMeter) {
        self.tally = tally
        self.strategy = strategy
        self.progress = progress
    }

    /// Adds execution `index`'s `record`; returns whether the search goes on: not after a
    /// failure, nor after a replay (`replaying`) the code followed to the end.
    func add(_ record: ExecutionRecord, execution index: Int, replaying: Bool) -> Bool {
        tally.add(ScheduleOutcome(execution: index, record, keepsRecord: true))
        let diverged = record.replayDivergence
        if divergence == nil { divergence = diverged }
        return !tally.failed && !(replaying && diverged == nil)
    }
}
