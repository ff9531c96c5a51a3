import Testing

extension LinearizabilityTest {
    /// Generates and explores scenarios, and records the smallest failing one, if any, as a
    /// Swift Testing issue at the call site (see ``GeneratedScenarioFailure/message``), with
    /// its full report and its picture attached. The environment may override `options`
    /// (``LinearizabilityOptions/applyingEnvironment(_:)``); an invalid setting, a test
    /// without operations and a generator that produces no value are issues too.
    ///
    /// `name` (by default the test's) names the scenarios, `<name> [scenario <code>]`, so a
    /// replay token fits exactly one: a token in `HARNESS_REPLAY` that carries a generated
    /// scenario's code makes the scenario again and replays the token's schedule in it,
    /// instead of generating; a run in which it fits no test fails. Under `HARNESS_SHARD=i/n`
    /// only this shard's tests run. The test is summed up in the campaign summary as one
    /// line. Failures are not kept beside the test (``ExplorationOptions/keepsFailures``):
    /// replay one with its token. Scenarios run in the test's process, whatever
    /// ``ExplorationOptions/isolation`` says, and not at all in the isolated child of another
    /// exploration of the same test. Returns the report, or `nil` when nothing ran.
    @discardableResult
    public func check(
        _ name: String? = nil,
        options: LinearizabilityOptions = LinearizabilityOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> LinearizabilityTestReport? {
        Campaign(name, .generated, sourceLocation: sourceLocation).check(self, options)
    }

    /// Generates and explores scenarios under `options` and returns what it found, recording
    /// nothing: for tests that expect a failure, and for tools. Of the environment it reads
    /// one variable, `HARNESS_REPLAY`, and only when `options` holds no token and the one
    /// there fits a scenario of `name`. Throws when a setting is out of range, a token in
    /// `options` fits no scenario of `name`, the test has no operations, or a generator
    /// produces no value.
    public func run(
        _ name: String,
        options: LinearizabilityOptions
    ) throws(LinearizabilityTestError) -> LinearizabilityTestReport {
        var options = options
        let campaign = Campaign(name, .generated, sourceLocation: #_sourceLocation)
        do {
            try options.validate()
            options.exploration.replay = try campaign.replayToken(
                own: options.exploration.replay,
                setting: "LinearizabilityOptions.exploration.replay"
            ) { Self.token($0, fits: name) }
        } catch {
            throw .configuration(error)
        }
        let report = try self.campaign(name, options: options, testID: Harness.currentTestID, wording: .forPerson)
        campaign.summarize(report)
        return report
    }
}

extension Campaign {
    /// The campaign of ``LinearizabilityTest``'s `check`: generates and explores scenarios of
    /// `test` under `options` as the environment overrides them, records the smallest
    /// failing one, and adds the test to the run's summary as one line. Returns the report,
    /// or `nil` when nothing ran.
    func check<Subject, Model>(
        _ test: LinearizabilityTest<Subject, Model>,
        _ options: LinearizabilityOptions
    ) -> LinearizabilityTestReport? {
        // An isolated child re-runs its test to explore one hand-written scenario, nothing else.
        guard environment.childScenario == nil, let configured = configure(options, sharded: true) else { return nil }
        if let token = options.exploration.replay, !type(of: test).token(token, fits: name) {
            let error = HarnessConfigurationError.badReplayToken(
                setting: "LinearizabilityOptions.exploration.replay",
                .otherScenario(token: token.scenarioHash, scenario: name)
            )
            recordIssue("\(error)")
            return nil
        }
        let fits = { (token: ReplayToken) in type(of: test).token(token, fits: name) }
        guard admits(own: options.exploration.replay, configured: configured.exploration.replay, fits: fits) else {
            return nil
        }
        do {
            let report = try test.campaign(
                name, options: configured, testID: Harness.currentTestID, wording: .forPerson)
            summarize(report)
            record(report.notReproduced)
            if let failure = report.failure {
                record(
                    failure.failure, message: failure.message, fullReport: failure.fullReport,
                    notes: report.osThreadFallback.map { ["\($0)"] } ?? [])
            }
            return report
        } catch {
            recordIssue("\(error)")
            return nil
        }
    }
}
