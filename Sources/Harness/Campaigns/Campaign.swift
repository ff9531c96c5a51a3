import Testing

/// One call of a front door (``Harness/explore(_:options:sourceLocation:_:)``,
/// ``Harness/run(_:options:_:)``, ``Harness/stress(_:options:sourceLocation:_:)``,
/// ``LinearizabilityTest``'s `check`, `run` and `stress`, and ``ExploredTrait``), from its prologue to its
/// epilogue: the one place that names it, reads the environment (once, when it begins, into
/// ``environment``), applies and checks the options, keeps to the shard, admits or refuses a
/// replay token, and records what it found as an issue with attachments and in the run's
/// summary (``RunState``). The loops it runs (``Explorer``, a stress run, a generated-scenario
/// search) read nothing from the environment.
struct Campaign: Sendable {
    /// The name: the one given, else the running test's, else the call's `file:line`.
    let name: String
    /// The front door called.
    let frontDoor: Knob.FrontDoor
    /// Where issues are recorded: the front door's call site (a front door that records
    /// nothing passes its own).
    let sourceLocation: SourceLocation
    /// The environment, read when the campaign began.
    let environment: EnvironmentSnapshot
    /// What the test run keeps: ``RunState/shared``, or a test's own.
    let run: RunState

    /// Begins a campaign of `frontDoor` called at `sourceLocation`, under `environment`.
    init(
        _ name: String?,
        _ frontDoor: Knob.FrontDoor,
        sourceLocation: SourceLocation,
        environment: EnvironmentSnapshot = .current(),
        run: RunState = .shared
    ) {
        self.name = name ?? Test.current?.name ?? "\(sourceLocation.fileID):\(sourceLocation.line)"
        self.frontDoor = frontDoor
        self.sourceLocation = sourceLocation
        self.environment = environment
        self.run = run
        run.begin(frontDoor, environment: environment)
    }

    /// `options` with the environment applied, checked: `nil` when a setting is invalid (an
    /// issue says which), or when `sharded` and this run's shard (`HARNESS_SHARD`) leaves the
    /// campaign to another, unless the options replay a token. A shard of schedules
    /// (`i/n:schedules`) runs its part of the schedules of options that can split them
    /// (``CampaignOptions/splittingSchedules(_:)``); options that cannot go whole to the
    /// shard the campaign's name hashes to, as under `i/n`.
    func configure<Options: CampaignOptions>(_ options: Options, sharded: Bool) -> Options? {
        do {
            let configured = try options.applyingEnvironment(environment.variables)
            try configured.validate()
            guard sharded, configured.replayToken == nil, let shard = try HarnessEnvironment.shard(in: environment)
            else { return configured }
            if shard.splitsSchedules, let split = configured.splittingSchedules(shard.part) {
                return split
            }
            return shard.includes(name) ? configured : nil
        } catch {
            recordIssue("\(error)")
            return nil
        }
    }

    /// Whether a campaign that records its findings goes ahead with the token `configured`
    /// holds: it does when the token is the one the options held (`own`), when there is none,
    /// or when the environment's token `fits` the campaign; otherwise a warning says the
    /// campaign is skipped. The run notes whether the environment's token fitted
    /// (``RunState/noteReplay(fits:scenario:)``).
    func admits(own: ReplayToken?, configured: ReplayToken?, fits: (ReplayToken) -> Bool) -> Bool {
        guard own == nil, let token = configured else { return true }
        let fitting = fits(token)
        run.noteReplay(fits: fitting, scenario: name)
        if !fitting {
            warn(CampaignText.skipped(name))
        }
        return fitting
    }

    /// The token a campaign that records nothing replays: `own`, the options' (a
    /// `setting`), which must fit; else the environment's when it fits, noted in the run;
    /// else none. Throws when `own` does not fit, or when the environment's cannot be read.
    func replayToken(
        own: ReplayToken?,
        setting: String,
        fits: (ReplayToken) -> Bool
    ) throws(HarnessConfigurationError) -> ReplayToken? {
        if let own {
            guard fits(own) else {
                throw .badReplayToken(setting: setting, .otherScenario(token: own.scenarioHash, scenario: name))
            }
            return own
        }
        guard let text = environment[.replay] else { return nil }
        let token: ReplayToken
        do {
            token = try ReplayToken(parsing: text)
        } catch {
            throw .badReplayToken(setting: Knob.replay.name, error)
        }
        let fitting = fits(token)
        run.noteReplay(fits: fitting, scenario: name)
        return fitting ? token : nil
    }

    /// The failures kept beside `testFile`, as the environment configures keeping; `nil` when
    /// it is off.
    func keptFailures(testFile: String) throws(HarnessConfigurationError) -> KeptFailures? {
        try KeptFailures(testFile: testFile, environment: environment.variables)
    }

    /// Adds `report` to the run's summary.
    func summarize(_ report: ExplorationReport) {
        run.add(CampaignEntry(report))
    }

    /// Adds a generated-scenario test's `report` to the run's summary, as one line.
    func summarize(_ report: LinearizabilityTestReport) {
        run.add(
            CampaignEntry(
                scenario: SequenceCoverageText.summaryName(
                    report.test, scenarios: report.scenariosRun, coverage: report.sequenceCoverage
                ),
                strategy: report.strategy,
                seed: report.seed,
                reports: report.explorations,
                elapsed: report.elapsed
            ))
    }

    /// Records a replay that did not reproduce its failure, as a warning.
    func record(_ notReproduced: FailureNotReproduced?) {
        guard let notReproduced else { return }
        warn("\(notReproduced)")
    }

    /// Records `failure` as an issue headed by `message`, with `notes` after it, and attaches
    /// `fullReport` and the failure's picture, named after its execution.
    func record(_ failure: HarnessFailure, message: String, fullReport: String, notes: [String] = []) {
        recordIssue(([message] + notes).joined(separator: "\n"))
        attach(fullReport, named: "harness-\(failure.token.execution).txt")
        attach(failure.picture.html, named: "harness-\(failure.token.execution).html")
    }

    /// Records a failing issue headed by the first line of `text`.
    func recordIssue(_ text: String) {
        Harness.recordIssue(text, sourceLocation: sourceLocation)
    }

    /// Records a warning.
    func warn(_ text: String) {
        Issue.record(Comment(rawValue: text), severity: .warning, sourceLocation: sourceLocation)
    }

    /// Attaches `text` to the running test as the file `name`.
    func attach(_ text: String, named name: String) {
        Attachment.record(text, named: name, sourceLocation: sourceLocation)
    }
}
