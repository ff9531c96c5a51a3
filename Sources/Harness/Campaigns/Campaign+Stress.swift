import Testing

extension Harness {
    /// Runs `test` on real threads at full speed, records an issue at the call site when an
    /// iteration ends in a forbidden outcome, and returns the report.
    ///
    /// The iterations run as ``runStress(_:options:_:)`` describes. The environment may
    /// override `options` (see ``StressOptions/applyingEnvironment(_:)``); an invalid
    /// setting is an issue. The issue holds the histogram and, for each forbidden outcome,
    /// the schedule the deterministic scheduler found for it, with the command that replays
    /// it: with a token in `HARNESS_REPLAY`, this function replays that schedule under the
    /// harness instead of running stress, and records its failure as
    /// ``explore(_:options:sourceLocation:_:)`` does (a token for another scenario skips the
    /// test with a warning). Returns `nil` when it replayed or could not run.
    ///
    /// Stress runs of one process take turns: each has the machine to itself for its time
    /// budget, and a waiting run suspends without holding a thread.
    @discardableResult
    public static func stress<Outcome>(
        _ name: String? = nil,
        options: StressOptions = StressOptions(),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ test: StressTest<Outcome>
    ) async -> StressReport<Outcome>? {
        await Campaign(name, .stress, sourceLocation: sourceLocation).stress(options, test)
    }

    /// Runs a scenario that reports no outcome under stress: its failed checks, errors and
    /// hangs are its forbidden outcomes (see the generic `stress(_:options:sourceLocation:_:)`).
    @discardableResult
    public static func stress(
        _ name: String? = nil,
        options: StressOptions = StressOptions(),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) async -> StressReport<ScenarioCompleted>? {
        await stress(name, options: options, sourceLocation: sourceLocation, StressTest(body))
    }
}

extension Campaign {
    /// The campaign of ``Harness/stress(_:options:sourceLocation:_:)``: runs `test` under
    /// `options` as the environment overrides them and records a report with a forbidden
    /// outcome as an issue, with the report attached; with a token in `HARNESS_REPLAY`,
    /// replays it as ``explore(_:_:)`` does instead. Returns the report, or `nil` when it
    /// replayed or could not run.
    func stress<Outcome>(_ options: StressOptions, _ test: StressTest<Outcome>) async -> StressReport<Outcome>? {
        await stress(
            options,
            replay: { explore(ExplorationOptions(), Escalation.replayBody(test)) },
            run: { configured throws(HarnessError) in try await Harness.runStress(name, options: configured, test) },
            texts: { ($0.text, $0.text) }
        )
    }

    /// What every stress campaign does: with a token in `HARNESS_REPLAY`, `replay` instead
    /// of a run, and `nil`; otherwise `run` under `options` as the environment overrides
    /// them, and a report that saw a forbidden outcome recorded as an issue with the first
    /// text `texts` gives, and the second attached. An invalid setting or an error `run`
    /// throws is an issue, and `nil`.
    func stress<Options: CampaignOptions, Outcome, Failure: Error>(
        _ options: Options,
        replay: () -> Void,
        run: (Options) async throws(Failure) -> StressReport<Outcome>,
        texts: (StressReport<Outcome>) -> (issue: String, attachment: String)
    ) async -> StressReport<Outcome>? {
        if environment[.replay] != nil {
            replay()
            return nil
        }
        guard let configured = configure(options, sharded: false) else { return nil }
        let report: StressReport<Outcome>
        do {
            report = try await run(configured)
        } catch {
            recordIssue("\(error)")
            return nil
        }
        if !report.passed {
            let (issue, attachment) = texts(report)
            recordIssue(issue)
            attach(attachment, named: "stress-report.txt")
        }
        return report
    }
}
