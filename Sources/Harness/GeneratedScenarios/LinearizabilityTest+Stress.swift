/// A ``LinearizabilityTest`` as a stress test: iteration `i` of a run makes the scenario of
/// ``stressScenario(_:seed:)`` and runs its calls on real threads, and the checker's verdict
/// on the history is the iteration's outcome (``LinearizabilityOutcome``); with blocking
/// operations, calls still waiting once the iteration's threads are quiescent
/// (``StressWaits``) are checked as blocked, as in exploration. Its escalation
/// searches, in the scenario that first showed a violation, for a schedule whose history is
/// the same kind of violation.
extension LinearizabilityTest {
    /// The code of the scenario iteration `iteration` of a stress run from `seed` runs: a
    /// seed of its own, derived from both.
    static func stressScenario(_ iteration: Int, seed: UInt64) -> ScenarioCode {
        ScenarioCode(seed: SplitMix64.seed(seed, execution: iteration))
    }

    /// The seed a stress run of the test `test` under `options` draws its scenarios from:
    /// the options', else one derived from the test's name.
    static func stressSeed(_ test: String, options: LinearizabilityOptions) -> UInt64 {
        options.exploration.seed ?? UInt64(ReplayToken.hash(test))
    }

    /// The stress test each of whose iterations runs its own generated scenario (shaped by
    /// `options`, drawn from `seed`) and returns the verdict on its history. A linearizable
    /// history is acceptable; each kind of rejection is forbidden, with the meaning
    /// `meaning` gives it (the report's words). Throws when the test cannot run: it has no
    /// operations, async operations on threads, or a generator that produces no value.
    func stressTest(
        options: LinearizabilityOptions,
        seed: UInt64,
        linearizable: String,
        meaning: @escaping @Sendable (HistoryRejection.Kind) -> String
    ) throws(LinearizabilityTestError) -> StressTest<LinearizabilityOutcome> {
        guard !operations.isEmpty else { throw .noOperations }
        if requestedClients == .threads, operations.contains(where: \.isAsync) { throw .asyncOperationsOnThreads }
        if hasBlockingOperations, usesTasks { throw .blockingTasksUnderStress }
        do {
            _ = try generate(seed: Self.stressScenario(0, seed: seed).seed, options: options)
        } catch {
            throw .generator(error)
        }
        let kinds: [HistoryRejection.Kind] = [.notLinearizable, .modelNotDeterministic, .undecided, .foreignError]
        let rules =
            [OutcomeRule<LinearizabilityOutcome>.acceptable(.linearizable, meaning: linearizable)]
            + kinds.map { kind in .forbidden(meaning: meaning(kind)) { $0.violation?.kind == kind } }
        let test = self
        return StressTest(outcomes: rules) { harnessScenario in
            guard let iteration = StressIteration.current else {
                preconditionFailure("a linearizability test's stress body ran outside a stress iteration")
            }
            let code = Self.stressScenario(iteration.index, seed: seed)
            let scenario = try test.generate(seed: code.seed, options: options)
            let quiescence = test.hasBlockingOperations ? iteration : nil
            quiescence?.countWaits()
            return test.performChecked(scenario, in: harnessScenario, quiescence: quiescence) { history in
                LinearizabilityOutcome(options.checker.check(history, model: test.model))
            }
        }
    }

    /// The escalation of a stress run of the test `test`: each forbidden outcome is searched
    /// for in the scenario of the first iteration that ended in it (`rows` say which), named
    /// as a generated scenario is, so that its token replays through the test's `check` and
    /// `run` with the same scenario options, and fails there identically. A violation is
    /// searched for as its kind: an execution fails only when its history is rejected the
    /// same way (``checkHistory(_:model:checker:failingOn:)``), and one rejected otherwise
    /// counts as another forbidden outcome. A failed check, an error or a hang is searched
    /// for with the test's own body, which fails on any of them. A crash in a search prints
    /// `wording`'s words.
    func stressEscalation(
        _ test: String,
        options: EscalationOptions,
        scenarios: LinearizabilityOptions,
        seed: UInt64,
        rows: [StressHistogramRow<LinearizabilityOutcome>],
        leakNotSearched: String,
        wording: ExplorationWording
    ) -> Escalation<LinearizabilityOutcome> {
        let firstIterations = Dictionary(rows.map { ($0.outcome, $0.firstIteration) }) { first, _ in first }
        return Escalation(options: options, leakNotSearched: leakNotSearched) { target, others in
            let code = Self.stressScenario(firstIterations[target] ?? 0, seed: seed)
            let violation = target.returnedOutcome
            let matches: @Sendable (ExecutionFailure) -> Bool = { reason in
                switch (target, reason) {
                case (.returned, .historyRejected(.verdict, _)), (.threw, .historyRejected(.foreignError, _)):
                    true
                default:
                    Escalation<LinearizabilityOutcome>.matches(target, reason)
                }
            }
            var search = EscalationSearch(
                scenario: Self.scenarioName(test, code),
                options: options,
                body: { harnessScenario in
                    // A scenario the stress run generated generates again from its seed.
                    let scenario = try self.generate(seed: code.seed, options: scenarios)
                    self.body(for: scenario, checker: scenarios.checker, reaching: violation, countingOthersIn: others)(
                        harnessScenario)
                },
                matches: matches,
                wording: wording
            )
            search.generatedScenario = code.description
            return search
        }
    }
}
