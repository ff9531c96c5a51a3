import Testing

extension Campaign {
    /// The campaign of ``Harness/explore(_:options:sourceLocation:_:)``: explores `body` under
    /// `options` as the environment overrides them, replaying the kept failures first, records
    /// its failure and keeps it, and adds the exploration to the run's summary. Returns the
    /// report, or `nil` when nothing was explored.
    @discardableResult
    func explore(
        _ options: ExplorationOptions,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) -> ExplorationReport? {
        let child = environment.childScenario
        if let child, child != name { return nil }
        guard let configured = configure(options, sharded: true) else { return nil }
        guard admits(own: options.replay, configured: configured.replay, fits: { $0.fits(scenario: name) }) else {
            return nil
        }
        do {
            let kept =
                configured.replay == nil && configured.keepsFailures && child == nil
                ? try keptFailures(testFile: sourceLocation.filePath)
                : nil
            if let kept, let report = try replayKept(kept, options: configured, body) {
                return report
            }
            let report = try Harness.execute(name, options: configured, environment: environment, body)
            summarize(report)
            record(report.notReproduced)
            if let failure = report.failure {
                var notes = report.osThreadFallback.map { ["\($0)"] } ?? []
                if let kept {
                    do {
                        try kept.keep(failure.token, scenario: name)
                        if kept.writes { notes.append(kept.keptNote) }
                    } catch {
                        notes.append(kept.notKeptNote(error))
                    }
                }
                record(failure, message: failure.message, fullReport: failure.fullReport, notes: notes)
            }
            return report
        } catch {
            recordIssue("\(error)")
            return nil
        }
    }

    /// Replays the failures kept for the scenario, oldest first; returns the report of the
    /// first that fails again (recorded as an issue), or `nil` when none does. A kept
    /// schedule that passes where the code followed it to the end is the guard holding, and
    /// says nothing; one the code left on the way, whose failure a seeded search from there
    /// did not find either, is a warning saying so, and so are kept schedules of an older
    /// token format.
    private func replayKept(
        _ kept: KeptFailures,
        options: ExplorationOptions,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) throws(HarnessError) -> ExplorationReport? {
        let schedules: KeptFailures.Schedules
        do {
            schedules = try kept.schedules(of: name)
        } catch {
            throw .configuration(error)
        }
        if schedules.outdated > 0 {
            warn(kept.outdatedNote(count: schedules.outdated))
        }
        let tokens = schedules.tokens
        for (index, token) in tokens.enumerated() {
            var replaying = options
            replaying.replay = token
            let report = try Harness.execute(name, options: replaying, environment: environment, body)
            guard let failure = report.failure else {
                if let notReproduced = report.notReproduced, notReproduced.divergence != nil {
                    warn(kept.notReproducedNote(index: index, of: tokens.count, notReproduced))
                }
                continue
            }
            let note = kept.failedAgainNote(index: index, of: tokens.count)
            record(failure, message: failure.message, fullReport: failure.fullReport, notes: [note])
            return report
        }
        return nil
    }
}
