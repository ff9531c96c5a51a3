import Primitives
import Synchronization

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
        private let recorders = Mutex<[CallSlot: Recorder]>([:])
        private let lanes = Mutex<[CallSlot.Part: String]>([:])
        private let waitedForGood = Mutex(false)

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

    /// The body of one execution of `scenario`: a fresh subject, the initial part, the
    /// parallel part, the final part, the tear-down, and the check of the recorded history.
    /// With blocking operations, calls still waiting once nothing else can run are checked
    /// as blocked ones before the tear-down (``checkBlockedCalls(_:model:checker:)``).
    /// `capture`, when given, receives the execution's record as it starts.
    func body(
        for scenario: GeneratedScenario<Call>,
        checker: LinearizabilityChecker,
        capture: (@Sendable (ExecutionCapture) -> Void)? = nil
    ) -> @Sendable (Scenario) -> Void {
        let test = self
        return { harnessScenario in
            let record = ExecutionCapture()
            capture?(record)
            let subject = test.make()
            let quiescence = test.hasBlockingOperations ? Execution.current : nil
            if test.usesTasks {
                Self.runOnTasks(scenario, subject, record, harnessScenario)
            } else {
                Self.runOnThreads(scenario, subject, record, harnessScenario, quiescence: quiescence)
            }
            if let quiescence, Self.checkBlockedCalls(record, model: test.model, checker: checker) {
                quiescence.abandonWaitingThreads()
                test.tearDownBody?(subject)
                return
            }
            test.tearDownBody?(subject)
            Self.checkHistory(record.history.history, model: test.model, checker: checker)
        }
    }

    /// Once every client has finished or waits for good, checks the history with the calls
    /// still waiting as blocked ones (failing the execution unless the model justifies their
    /// waits), and returns whether there were any.
    private static func checkBlockedCalls(_ record: ExecutionCapture, model: Model, checker: LinearizabilityChecker)
        -> Bool
    {
        var history = record.history.history
        guard history.entries.contains(where: \.isPending) else { return false }
        history.markPendingCallsBlocked()
        record.endedWithBlockedCalls = true
        checkHistory(history, model: model, checker: checker)
        return true
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

    /// Fails the execution unless `history` is linearizable with respect to `model`, with
    /// the verdict as a value (``ExecutionFailure/historyRejected(_:thread:)``): its kind is
    /// what shrinking keeps apart (a violation, a model that is not deterministic, a search
    /// out of budget), and its words are the checker's.
    static func checkHistory(
        _ history: History<Model.Operation, Model.Result>, model: Model, checker: LinearizabilityChecker
    ) {
        let verdict = checker.check(history, model: model)
        guard let kind = HistoryRejection.Kind(verdict.outcome) else { return }
        Harness.failExecution { .historyRejected(.verdict(kind, explanation: verdict.description), thread: $0) }
    }

    /// Fails the execution: `call` threw `error`, which the model's results cannot hold.
    static func failForeignError<Failure: Error>(_ error: any Error, call: String, expected: Failure.Type) -> Never {
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
