import Primitives

/// Where a call sits in a generated scenario.
struct CallSlot: Hashable, Sendable {
    /// The scenario's parts.
    enum Part: Hashable, Sendable {
        case initial
        case parallel(client: Int)
        case final
    }

    let part: Part
    let index: Int
}

extension LinearizabilityTest {
    /// What one execution of a generated scenario recorded: its history, the recorder of each
    /// call that started, and the lane each client ran on.
    final class ExecutionCapture: Sendable {
        let history = HistoryRecorder<Model.Operation, Model.Result>()
        private let recorders = DirectlyLocked<[CallSlot: Recorder]>([:])
        private let lanes = DirectlyLocked<[CallSlot.Part: String]>([:])
        private let waitedForGood = DirectlyLocked(false)

        /// Whether the execution ended with calls waiting for good: its pending calls are
        /// blocked ones.
        var endedWithBlockedCalls: Bool {
            get { waitedForGood.withLock { $0 } }
            set { waitedForGood.withLock { $0 = newValue } }
        }

        /// A recorder for the call at `slot`, made by `client`.
        func recorder(for slot: CallSlot, client: Int) -> Recorder {
            let recorder = Recorder(client: client, history: history)
            recorders.withLock { $0[slot] = recorder }
            return recorder
        }

        /// The recorder of the call at `slot`, if it started.
        func recorder(at slot: CallSlot) -> Recorder? {
            recorders.withLock { $0[slot] }
        }

        /// Notes that `part` ran on the lane reports call `label`.
        func name(_ part: CallSlot.Part, _ label: String) {
            lanes.withLock { $0[part] = label }
        }

        /// The lane `part` ran on, if it ran.
        func lane(of part: CallSlot.Part) -> String? {
            lanes.withLock { $0[part] }
        }
    }

    /// The body of one execution of `scenario`: its calls (``perform(_:in:quiescence:capture:)``)
    /// and the check of the recorded history. It fails the execution on every rejected history,
    /// or, searching for `target`, only on a history of that outcome, counting the other
    /// rejected ones in `others`. With blocking operations, calls still waiting once nothing
    /// else can run are checked as blocked ones, then their threads are abandoned and the
    /// subject torn down. `capture`, when given, receives the execution's record as it starts.
    func body(
        for scenario: GeneratedScenario<Call>,
        checker: LinearizabilityChecker,
        reaching target: LinearizabilityOutcome? = nil,
        countingOthersIn others: EscalationTally? = nil,
        capture: (@Sendable (ExecutionCapture) -> Void)? = nil
    ) -> @Sendable (Scenario) -> Void {
        let test = self
        return { harnessScenario in
            let quiescence = test.hasBlockingOperations ? Execution.current : nil
            let (record, subject) = test.perform(
                scenario, in: harnessScenario, quiescence: quiescence, capture: capture)
            var history = record.history.history
            let waiting = quiescence != nil && history.entries.contains(where: \.isPending)
            if waiting {
                history.markPendingCallsBlocked()
                record.endedWithBlockedCalls = true
            } else {
                test.tearDownBody?(subject)
            }
            let outcome = Self.checkHistory(history, model: test.model, checker: checker, failingOn: target)
            if outcome != .linearizable, outcome != target { others?.add() }
            // Abandoning the waiting threads ends what the execution records, so it comes after the check.
            guard waiting else { return }
            quiescence?.abandonWaitingThreads()
            test.tearDownBody?(subject)
        }
    }

    /// Runs `scenario` in `harnessScenario` on a fresh subject: the initial part, the parallel
    /// part and the final part. With `quiescence` (a test with blocking operations), each part
    /// ends once every client has finished or waits for good, rather than once every client
    /// has finished. Returns the record of what the calls did and the subject, for the caller
    /// to tear down; `capture`, when given, receives the record as it starts.
    func perform(
        _ scenario: GeneratedScenario<Call>,
        in harnessScenario: Scenario,
        quiescence: (any ScenarioRuntime)? = nil,
        capture: (@Sendable (ExecutionCapture) -> Void)? = nil
    ) -> (record: ExecutionCapture, subject: Subject) {
        let record = ExecutionCapture()
        capture?(record)
        let subject = make()
        if usesTasks {
            Self.runOnTasks(scenario, subject, record, harnessScenario)
        } else {
            Self.runOnThreads(scenario, subject, record, harnessScenario, quiescence: quiescence)
        }
        return (record, subject)
    }

    /// `T0` runs the initial and final parts, a spawned thread each client of the parallel
    /// part; clients are numbered as their threads. With `quiescence` (a test with blocking
    /// operations), the final part starts, and the run ends, once every client has finished or
    /// waits for good, instead of once every client has finished.
    private static func runOnThreads(
        _ scenario: GeneratedScenario<Call>, _ subject: Subject, _ record: ExecutionCapture,
        _ harnessScenario: Scenario,
        quiescence: (any ScenarioRuntime)?
    ) {
        let main = Seam.currentThread?.rawValue ?? 0
        record.name(.initial, "T\(main)")
        record.name(.final, "T\(main)")
        for (index, call) in scenario.initial.enumerated() {
            perform(
                call, on: subject, recorder: record.recorder(for: CallSlot(part: .initial, index: index), client: main))
        }
        for (client, calls) in scenario.parallel.enumerated() {
            let thread = harnessScenario.spawn {
                let number = Seam.currentThread?.rawValue ?? client + 1
                for (index, call) in calls.enumerated() {
                    let slot = CallSlot(part: .parallel(client: client), index: index)
                    perform(call, on: subject, recorder: record.recorder(for: slot, client: number))
                }
            }
            record.name(.parallel(client: client), "T\(thread.number)")
        }
        if let quiescence {
            quiescence.awaitOthersQuiescent(at: SeamLocation(fileID: #fileID, line: #line))
        } else {
            harnessScenario.joinAll()
        }
        for (index, call) in scenario.final.enumerated() {
            perform(
                call, on: subject, recorder: record.recorder(for: CallSlot(part: .final, index: index), client: main))
        }
        quiescence?.awaitOthersQuiescent(at: SeamLocation(fileID: #fileID, line: #line))
    }

    /// A task named `initial` runs the initial part, one named `client N` each client of the
    /// parallel part (client N), and one named `final` the final part; the initial and final
    /// parts are client 0.
    private static func runOnTasks(
        _ scenario: GeneratedScenario<Call>, _ subject: Subject, _ record: ExecutionCapture, _ harnessScenario: Scenario
    ) {
        func start(_ part: CallSlot.Part, _ name: String, client: Int, _ calls: [Call]) {
            guard !calls.isEmpty else { return }
            record.name(part, name)
            harnessScenario.task(name: name) {
                for (index, call) in calls.enumerated() {
                    await perform(
                        call, on: subject,
                        recorder: record.recorder(for: CallSlot(part: part, index: index), client: client))
                }
            }
        }
        start(.initial, "initial", client: 0, scenario.initial)
        harnessScenario.joinAll()
        for (client, calls) in scenario.parallel.enumerated() {
            start(.parallel(client: client), "client \(client + 1)", client: client + 1, calls)
        }
        harnessScenario.joinAll()
        start(.final, "final", client: 0, scenario.final)
        harnessScenario.joinAll()
    }

    /// Makes `call` on a thread. Calls that suspend run on tasks only.
    private static func perform(_ call: Call, on subject: Subject, recorder: Recorder) {
        switch call.perform {
        case .sync(let body):
            body(subject, recorder)
        case .async:
            preconditionFailure("the async call \(call.label) was made on a thread")
        }
    }

    /// Makes `call` in a task.
    private static func perform(_ call: Call, on subject: Subject, recorder: Recorder) async {
        switch call.perform {
        case .sync(let body):
            body(subject, recorder)
        case .async(let body):
            await body(subject, recorder)
        }
    }

    /// Checks `history` against `model` and returns its outcome; fails the execution when
    /// the history is rejected and `target` is `nil` or that outcome, with the verdict as a
    /// value (``ExecutionFailure/historyRejected(_:thread:)``): its kind is what shrinking
    /// keeps apart (a violation, a model that is not deterministic, a search out of budget),
    /// and its words are the checker's. A search for one outcome and a replay of what it
    /// found therefore fail at the same point with the same failure.
    @discardableResult
    static func checkHistory(
        _ history: History<Model.Operation, Model.Result>,
        model: Model,
        checker: LinearizabilityChecker,
        failingOn target: LinearizabilityOutcome? = nil
    ) -> LinearizabilityOutcome {
        let verdict = checker.check(history, model: model)
        let outcome = LinearizabilityOutcome(verdict)
        guard let kind = HistoryRejection.Kind(verdict.outcome), target == nil || target == outcome else {
            return outcome
        }
        Harness.failExecution { .historyRejected(.verdict(kind, explanation: verdict.description), thread: $0) }
    }

    /// Fails the execution: `call` threw `error`, which the model's results cannot hold. In
    /// a stress iteration it records the error as the iteration's outcome and returns, and
    /// the call stays pending.
    static func failForeignError<Failure: Error>(_ error: any Error, call: String, expected: Failure.Type) {
        if Execution.current == nil, let iteration = StressIteration.current {
            return iteration.record(.threw(error: "\(error)"))
        }
        Harness.failExecution { thread in
            .historyRejected(.foreignError(call: call, error: "\(error)", expected: "\(Failure.self)"), thread: thread)
        }
    }
}

extension HistoryRejection.Kind {
    /// The kind of rejection a verdict with `outcome` is; `nil` for a linearizable history.
    init?<Result>(_ outcome: LinearizabilityVerdict<some Any, Result>.Outcome) {
        switch outcome {
        case .linearizable: return nil
        case .notLinearizable: self = .notLinearizable
        case .modelNotDeterministic: self = .modelNotDeterministic
        case .undecided: self = .undecided
        }
    }
}
