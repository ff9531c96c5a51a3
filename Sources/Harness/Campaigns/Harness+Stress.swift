import Foundation

extension Harness {
    /// Runs `test` under stress and returns the report, recording nothing: for tests that
    /// expect a forbidden outcome, and for tools. Reads nothing from the environment.
    ///
    /// ``StressOptions/threads`` root threads each run iterations one after another until
    /// ``StressOptions/iterations`` or ``StressOptions/timeBudget`` runs out. In an
    /// iteration the body runs on a root thread; the threads it spawns are real threads
    /// that wait at a start gate, released together when the root thread first may wait for
    /// another (a join, a lock, a condition, a yield, a sleep, an atomic load) or returns, so
    /// their work overlaps; its tasks run on ``StressOptions/taskExecutor``. Seam operations
    /// are the plain OS operations. A failed ``check(_:_:file:line:)`` records the
    /// iteration's outcome and returns, and the scenario runs on. An iteration that runs past
    /// ``StressOptions/hangTimeout`` ends the run, and its threads are left behind; so do
    /// iterations that leave threads behind, before the process runs out of them.
    ///
    /// Then each forbidden outcome, up to ``EscalationOptions/maxTargets``, is searched for
    /// under the deterministic scheduler (``run(_:options:_:)``, in this process, still in
    /// the run's turn), and the report holds the schedule found, with its replay token, or
    /// the likely causes.
    ///
    /// A crash ends the process: the crashing thread (a thread of an iteration, not a task)
    /// first prints the run's counts so far.
    ///
    /// Throws when a setting is out of range.
    public static func runStress<Outcome>(
        _ name: String,
        options: StressOptions,
        _ test: StressTest<Outcome>
    ) async throws(HarnessError) -> StressReport<Outcome> {
        do {
            try options.validate()
        } catch {
            throw .configuration(error)
        }
        return await stressRun(name, options: options, test) { _, escalation in
            Escalation(
                name: name, test: test, options: escalation, leakNotSearched: StressReportText.leakNotSearched,
                wording: .forPerson)
        }
    }

    /// Runs `test` under `options`, which are valid, in the process's turn
    /// (``StressTurns``), then searches for its forbidden outcomes with the escalation
    /// `escalation` makes from the histogram's rows, and returns the report.
    static func stressRun<Outcome>(
        _ name: String,
        options: StressOptions,
        _ test: StressTest<Outcome>,
        escalation: @escaping @Sendable ([StressHistogramRow<Outcome>], EscalationOptions) -> Escalation<Outcome>
    ) async -> StressReport<Outcome> {
        await StressTurns.take { () async -> StressReport<Outcome> in
            let result = await withCheckedContinuation { continuation in
                let wording = StressReportText.runWording(test: name, outcomes: test.outcomes)
                let run = StressRun(test: test, options: options, wording: wording)
                Thread.detachNewThread { continuation.resume(returning: run.run()) }
            }
            let histogram = result.histogram.rows(classifiedBy: test.outcomes)
            var escalations: [StressEscalation<Outcome>] = []
            if let options = options.escalation {
                // The forbidden outcomes seen most often first: the likeliest to have a
                // schedule the search reaches within its budget (the first seen could be a
                // rare one that needs many preemptions).
                let targets = histogram.filter { $0.verdict == .forbidden }
                    .sorted { (-$0.count, $0.firstIteration) < (-$1.count, $1.firstIteration) }
                    .map(\.outcome)
                escalations = escalation(histogram, options).search(for: targets)
            }
            return StressReport(
                test: name,
                iterations: result.iterations,
                threads: options.threads,
                elapsed: result.elapsed,
                stop: result.stop,
                histogram: histogram,
                escalations: escalations
            )
        }
    }

    /// Replays `token`, which a stress run's escalation of `test` recorded, under the
    /// deterministic scheduler, and returns the report, recording nothing. The replay fails
    /// as the escalation's execution did: with the same reason and the same steps.
    public static func replayStress<Outcome>(
        _ name: String,
        token: ReplayToken,
        _ test: StressTest<Outcome>
    ) throws(HarnessError) -> ExplorationReport {
        try run(name, options: ExplorationOptions(replay: token), Escalation.replayBody(test))
    }
}
