import Testing

extension LinearizabilityTest {
    /// Runs generated scenarios of this test on real threads at full speed, each iteration a
    /// scenario of its own, and checks each iteration's history; records an issue at the call
    /// site when a history is rejected, and returns the report.
    ///
    /// The report has one row per kind of outcome (``LinearizabilityOutcome``): linearizable,
    /// and each kind of violation with the operations it involves, whatever the values, so
    /// one bug is one row. Each violation seen is searched for under the deterministic
    /// scheduler in the scenario that showed it, as the same kind of violation; the report
    /// gives the token of the schedule found, which replays through ``check(_:options:sourceLocation:)``
    /// and ``run(_:options:)`` (with the same ``LinearizabilityStressOptions/scenarios``) and
    /// fails there with the same failure. With a token in `HARNESS_REPLAY`, this function
    /// replays it as `check` does instead of running stress, and returns `nil`. The report
    /// fits 40 lines; the issue attaches the full one.
    ///
    /// The environment may override `options` (the stress knobs, and the seed); an invalid
    /// setting is an issue. Stress runs of one process take turns, as
    /// ``Harness/stress(_:options:sourceLocation:_:)`` describes.
    @discardableResult
    public func stress(
        _ name: String? = nil,
        options: LinearizabilityStressOptions = LinearizabilityStressOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> StressReport<LinearizabilityOutcome>? {
        await Campaign(name, .stress, sourceLocation: sourceLocation).stress(self, options)
    }

    /// Runs generated scenarios of this test under stress and returns the report, recording
    /// nothing and reading nothing from the environment: for tests that expect a violation,
    /// and for tools. Throws when a setting is out of range, the test has no operations or
    /// async operations on threads, or a generator produces no value.
    public func runStress(
        _ name: String,
        options: LinearizabilityStressOptions
    ) async throws(LinearizabilityTestError) -> StressReport<LinearizabilityOutcome> {
        do {
            try options.validate()
        } catch {
            throw .configuration(error)
        }
        let seed = Self.stressSeed(name, options: options.scenarios)
        let test = try stressTest(
            options: options.scenarios,
            seed: seed,
            linearizable: LinearizabilityStressText.linearizable,
            meaning: LinearizabilityStressText.meaning
        )
        return await Harness.stressRun(name, options: options.stress, test) { rows, escalation in
            stressEscalation(
                name,
                options: escalation,
                scenarios: options.scenarios,
                seed: seed,
                rows: rows,
                leakNotSearched: StressReportText.leakNotSearched,
                wording: .forPerson
            )
        }
    }
}

extension Campaign {
    /// The campaign of ``LinearizabilityTest``'s `stress`: runs `test` under `options` as the
    /// environment overrides them and records a report with a rejected history as an issue,
    /// with the full report attached; with a token in `HARNESS_REPLAY`, replays it as the
    /// test's `check` does instead. Returns the report, or `nil` when it replayed or could not
    /// run.
    func stress<Subject, Model>(
        _ test: LinearizabilityTest<Subject, Model>,
        _ options: LinearizabilityStressOptions
    ) async -> StressReport<LinearizabilityOutcome>? {
        await stress(
            options,
            replay: { _ = check(test, options.scenarios) },
            run: { configured throws(LinearizabilityTestError) in try await test.runStress(name, options: configured) },
            texts: { ($0.text, $0.fullReport) }
        )
    }
}
