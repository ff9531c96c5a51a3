import Foundation
import Primitives

extension LinearizabilityTest {
    /// The name of the scenario `code` names in the test `test`.
    static func scenarioName(_ test: String, _ code: ScenarioCode) -> String {
        "\(test) [scenario \(code)]"
    }

    /// Whether `token` was recorded in a scenario of the test `test`.
    static func token(_ token: ReplayToken, fits test: String) -> Bool {
        guard let text = token.generatedScenario, let code = ScenarioCode(parsing: text) else { return false }
        return token.fits(scenario: scenarioName(test, code))
    }
}

extension LinearizabilityTest {
    /// The runs of one campaign: what every exploration reported, for the summary.
    private struct Tally {
        var reports: [ExplorationReport] = []
        var scenarios = 0
        var schedules: Int { reports.reduce(0) { $0 + $1.schedulesRun } }
    }

    /// Replays the token in `options`, or generates and explores scenarios until one fails
    /// and shrinks that one.
    func campaign(_ test: String, options: LinearizabilityOptions, testID: String?) throws(LinearizabilityTestError)
        -> LinearizabilityTestReport
    {
        guard !operations.isEmpty else { throw .noOperations }
        if requestedClients == .threads, operations.contains(where: \.isAsync) { throw .asyncOperationsOnThreads }
        if hasBlockingOperations, usesTasks { throw .blockingOperationsOnTasks }
        let start = ContinuousClock.now
        let campaignSeed =
            options.exploration.replay?.seed ?? options.exploration.seed ?? UInt64(ReplayToken.hash(test))
        var exploration = options.exploration
        exploration.seed = campaignSeed
        exploration.progressInterval = nil
        exploration.isolation = .none
        var tally = Tally()
        var progress = ProgressLine(
            label: ProgressLine.label(test, strategy: options.exploration.strategy, seed: campaignSeed),
            interval: options.exploration.progressInterval)
        var failure: GeneratedScenarioFailure?
        var notReproduced: FailureNotReproduced?
        var shapes = SequenceCoverageCounter(budget: options.scenarios)
        if let token = options.exploration.replay,
            let code = token.generatedScenario.flatMap(ScenarioCode.init(parsing:))
        {
            let scenario = try regenerate(code, options: options)
            let report = explore(
                scenario, code: code, test: test, options: exploration, checker: options.checker, testID: testID)
            tally.reports.append(report)
            tally.scenarios = 1
            notReproduced = report.notReproduced
            if let found = report.failure {
                failure = describe(
                    Shrunk(scenario: scenario, code: code, failure: found), generated: scenario, test: test,
                    replayed: true, options: exploration, checker: options.checker, testID: testID)
            }
        } else {
            for index in 0..<options.scenarios {
                let (code, scenario): (ScenarioCode, GeneratedScenario<Call>)
                do {
                    (code, scenario) = try generate(
                        index, campaignSeed: campaignSeed, options: options, coverage: &shapes)
                } catch {
                    throw .generator(error)
                }
                let report = explore(
                    scenario, code: code, test: test, options: exploration, checker: options.checker, testID: testID)
                tally.reports.append(report)
                tally.scenarios += 1
                progress.update {
                    ProgressLine.generation(
                        scenariosDone: tally.scenarios, scenarios: options.scenarios, schedules: tally.schedules,
                        failed: report.failure != nil, elapsed: $0)
                }
                guard let found = report.failure else { continue }
                let shrunk = shrink(
                    Shrunk(scenario: scenario, code: code, failure: found), test: test, options: options,
                    exploration: exploration, testID: testID, tally: &tally, progress: &progress)
                failure = describe(
                    shrunk, generated: scenario, test: test, replayed: false, options: exploration,
                    checker: options.checker, testID: testID)
                break
            }
        }
        let elapsed = ContinuousClock.now - start
        progress.finish {
            ProgressLine.generation(
                scenariosDone: tally.scenarios, scenarios: options.scenarios, schedules: tally.schedules,
                failed: failure != nil, elapsed: $0)
        }
        return LinearizabilityTestReport(
            test: test,
            strategy: options.exploration.strategy,
            seed: campaignSeed,
            scenariosRun: tally.scenarios,
            schedulesRun: tally.schedules,
            failure: failure,
            notReproduced: notReproduced,
            sequenceCoverage: shapes.summary,
            elapsed: elapsed,
            explorations: tally.reports
        )
    }

    /// Explores `scenario`, named by `code`, under `options`.
    private func explore(
        _ scenario: GeneratedScenario<Call>,
        code: ScenarioCode,
        test: String,
        options: ExplorationOptions,
        checker: LinearizabilityChecker,
        testID: String?,
        shrinksSchedule: Bool = false,
        capture: (@Sendable (ExecutionCapture) -> Void)? = nil
    ) -> ExplorationReport {
        var explorer = Explorer(
            scenario: Self.scenarioName(test, code), options: options,
            body: body(for: scenario, checker: checker, capture: capture), testID: testID)
        explorer.generatedScenario = code.description
        explorer.shrinksSchedules = shrinksSchedule
        return explorer.run()
    }

    /// A failing scenario and how it failed.
    private struct Shrunk {
        var scenario: GeneratedScenario<Call>
        var code: ScenarioCode
        var failure: HarnessFailure
        var steps = 0
        var candidates = 0
    }

    /// Shrinks a failing scenario: takes the first candidate (in the order of
    /// ``GeneratedScenario/shrinkCandidates()``) whose exploration, within the budget
    /// ``ShrinkBudget`` gives, fails the same way (``ExecutionFailure/shrinkingKey``), and
    /// starts over from it, until no candidate fails
    /// or ``LinearizabilityOptions/shrinkCandidates`` have been explored. Then explores the
    /// smallest once more, shrinking the schedule of its failure to the fewest preemptions:
    /// candidates' schedules are not shrunk, since only whether they fail matters.
    private func shrink(
        _ found: Shrunk,
        test: String,
        options: LinearizabilityOptions,
        exploration: ExplorationOptions,
        testID: String?,
        tally: inout Tally,
        progress: inout ProgressLine
    ) -> Shrunk {
        var current = found
        guard let key = found.failure.reason.shrinkingKey else { return current }
        var budget = ShrinkBudget(configured: exploration.schedules, needed: found.failure.token.execution + 1)
        search: while current.candidates < options.shrinkCandidates {
            for (index, candidate) in current.scenario.shrinkCandidates().enumerated() {
                guard current.candidates < options.shrinkCandidates else { break search }
                current.candidates += 1
                let code = current.code.appending(index)
                var candidateExploration = exploration
                candidateExploration.schedules = budget.schedules
                let report = explore(
                    candidate, code: code, test: test, options: candidateExploration, checker: options.checker,
                    testID: testID)
                tally.reports.append(report)
                let fails = report.failure.map { $0.reason.shrinkingKey == key } ?? false
                if let failure = report.failure, fails {
                    current.scenario = candidate
                    current.code = code
                    current.failure = failure
                    current.steps += 1
                    budget.noteFailure(needed: failure.token.execution + 1)
                }
                progress.update { _ in
                    ProgressLine.shrinking(
                        candidates: current.candidates, steps: current.steps,
                        shape: current.scenario.shape(clients: clientNoun))
                }
                if fails { continue search }
            }
            break
        }
        var finalExploration = exploration
        finalExploration.schedules = budget.schedules
        let final = explore(
            current.scenario, code: current.code, test: test, options: finalExploration, checker: options.checker,
            testID: testID, shrinksSchedule: true)
        tally.reports.append(final)
        if let failure = final.failure, failure.reason.shrinkingKey == key {
            current.failure = failure
        }
        return current
    }

    /// The report of a failing scenario: replays its failing schedule once more, recording,
    /// for the table's results.
    private func describe(
        _ shrunk: Shrunk,
        generated: GeneratedScenario<Call>,
        test: String,
        replayed: Bool,
        options: ExplorationOptions,
        checker: LinearizabilityChecker,
        testID: String?
    ) -> GeneratedScenarioFailure {
        let last = DirectlyLocked<ExecutionCapture?>(nil)
        switch shrunk.failure.reason {
        case .stalled, .crashed, .killed:
            break
        default:
            var replaying = options
            replaying.replay = shrunk.failure.token
            replaying.schedules = 1
            _ = explore(
                shrunk.scenario, code: shrunk.code, test: test, options: replaying, checker: checker, testID: testID
            ) { record in
                last.withLock { $0 = record }
            }
        }
        return GeneratedScenarioFailure(
            test: test,
            scenarioCode: shrunk.code.description,
            table: Self.table(of: shrunk.scenario, record: last.withLock { $0 }, usesTasks: usesTasks),
            shape: shrunk.scenario.shape(clients: clientNoun),
            generatedShape: generated.shape(clients: clientNoun),
            shrinkSteps: shrunk.steps,
            candidatesExplored: shrunk.candidates,
            replayed: replayed,
            failure: shrunk.failure
        )
    }

    /// What the parallel part's clients are: `thread` or `task`.
    private var clientNoun: String { usesTasks ? "task" : "thread" }
}
