/// Declaring the operations of a ``LinearizabilityTest``. Each `operation` returns the test
/// with one more operation; generated scenarios pick among them evenly (declare one twice to
/// call it twice as often). `fileID` and `line` say where it was declared, for messages.
extension LinearizabilityTest {
    /// An operation with an argument drawn from `generator`: `makeOperation` names the call
    /// for the history (`QueueOperation.enqueue`), `perform` makes it on the subject and
    /// returns what the model's answer is compared with.
    public func operation<Argument>(
        _ makeOperation: @escaping @Sendable (Argument) -> Model.Operation,
        _ generator: Generator<Argument>,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject, Argument) -> Model.Result
    ) -> Self {
        adding(Self.recordingCalls(makeOperation, generator, perform), isAsync: false, fileID: fileID, line: line)
    }

    /// An operation with an argument whose calls may suspend (an actor's method): clients
    /// are then tasks.
    public func operation<Argument>(
        _ makeOperation: @escaping @Sendable (Argument) -> Model.Operation,
        _ generator: Generator<Argument>,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject, Argument) async -> Model.Result
    ) -> Self {
        adding(Self.recordingCalls(makeOperation, generator, perform), isAsync: true, fileID: fileID, line: line)
    }

    /// An operation with an argument that may throw, for a model whose result is a
    /// `Swift.Result`: a value returned is recorded as `.success`, an error of the model's
    /// `Failure` type as `.failure`. Any other error fails the execution, naming the call.
    public func operation<Argument, Success, Failure: Error>(
        _ makeOperation: @escaping @Sendable (Argument) -> Model.Operation,
        _ generator: Generator<Argument>,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject, Argument) throws -> Success
    ) -> Self where Model.Result == Swift.Result<Success, Failure> {
        let maker = CallMaker(generator: generator, label: { "\(makeOperation($0))" }) { argument in
            .sync { subject, recorder in
                let entry = recorder.invoke(makeOperation(argument))
                do {
                    recorder.respond(entry, with: .success(try perform(subject, argument)))
                } catch let error as Failure {
                    recorder.respond(entry, with: .failure(error))
                } catch {
                    Self.failForeignError(error, call: "\(makeOperation(argument))", expected: Failure.self)
                }
            }
        }
        return adding(maker, isAsync: false, fileID: fileID, line: line)
    }

    /// An operation with an argument that may suspend and throw, for a model whose result is
    /// a `Swift.Result` (see the synchronous form).
    public func operation<Argument, Success, Failure: Error>(
        _ makeOperation: @escaping @Sendable (Argument) -> Model.Operation,
        _ generator: Generator<Argument>,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject, Argument) async throws -> Success
    ) -> Self where Model.Result == Swift.Result<Success, Failure> {
        let maker = CallMaker(generator: generator, label: { "\(makeOperation($0))" }) { argument in
            .async { subject, recorder in
                let entry = recorder.invoke(makeOperation(argument))
                do {
                    recorder.respond(entry, with: .success(try await perform(subject, argument)))
                } catch let error as Failure {
                    recorder.respond(entry, with: .failure(error))
                } catch {
                    Self.failForeignError(error, call: "\(makeOperation(argument))", expected: Failure.self)
                }
            }
        }
        return adding(maker, isAsync: true, fileID: fileID, line: line)
    }

    /// An operation without an argument (`.dequeue`).
    public func operation(
        _ operation: Model.Operation,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject) -> Model.Result
    ) -> Self {
        self.operation({ _ in operation }, .just(()), fileID: fileID, line: line) { subject, _ in perform(subject) }
    }

    /// An operation without an argument whose calls may suspend.
    public func operation(
        _ operation: Model.Operation,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject) async -> Model.Result
    ) -> Self {
        self.operation({ _ in operation }, .just(()), fileID: fileID, line: line) { subject, _ in await perform(subject)
        }
    }

    /// An operation without an argument that may throw, for a model whose result is a
    /// `Swift.Result`.
    public func operation<Success, Failure: Error>(
        _ operation: Model.Operation,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject) throws -> Success
    ) -> Self where Model.Result == Swift.Result<Success, Failure> {
        self.operation({ _ in operation }, .just(()), fileID: fileID, line: line) { subject, _ in try perform(subject) }
    }

    /// An operation without an argument that may suspend and throw, for a model whose result
    /// is a `Swift.Result`.
    public func operation<Success, Failure: Error>(
        _ operation: Model.Operation,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject) async throws -> Success
    ) -> Self where Model.Result == Swift.Result<Success, Failure> {
        self.operation({ _ in operation }, .just(()), fileID: fileID, line: line) { subject, _ in
            try await perform(subject)
        }
    }

    /// A blocking operation with an argument drawn from `generator`: a call that may wait
    /// until other calls change the subject's state (a bounded queue's `put` while it is
    /// full), which the model says with ``SequentialModel/blocks(_:)``. Its calls are drawn
    /// for the parallel part only; the clients are threads (tasks for an `async` one). At the
    /// end of the parallel part, and again after the final part, the scenario goes on once
    /// every client has finished or waits for good; a call still waiting at the end is
    /// blocked (``History/Entry/isBlocked``) and the history is checked with it: it passes
    /// when some order of the other calls leaves the model blocking every such call, and
    /// fails as a lost wake-up (``LostWakeUp``) when the model lets one return. Then the waiting threads are
    /// abandoned, never returning, and ``tearDown(_:)`` runs. Under stress the same holds
    /// for waits on a `SeamCondition` without a deadline, which the iteration counts; a
    /// thread that waits otherwise ends the iteration as hung.
    public func blockingOperation<Argument>(
        _ makeOperation: @escaping @Sendable (Argument) -> Model.Operation,
        _ generator: Generator<Argument>,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject, Argument) -> Model.Result
    ) -> Self {
        adding(
            Self.recordingCalls(makeOperation, generator, perform), isAsync: false, isBlocking: true, fileID: fileID,
            line: line)
    }

    /// A blocking operation whose calls suspend (an actor's method that awaits a
    /// continuation until other calls resume it): as the synchronous `blockingOperation`,
    /// with tasks as clients. A call still suspended once no task, job or thread can run is
    /// blocked. Stress refuses the test (``LinearizabilityTestError/blockingTasksUnderStress``).
    public func blockingOperation<Argument>(
        _ makeOperation: @escaping @Sendable (Argument) -> Model.Operation,
        _ generator: Generator<Argument>,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject, Argument) async -> Model.Result
    ) -> Self {
        adding(
            Self.recordingCalls(makeOperation, generator, perform), isAsync: true, isBlocking: true, fileID: fileID,
            line: line)
    }

    /// A blocking operation without an argument whose calls suspend.
    public func blockingOperation(
        _ operation: Model.Operation,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject) async -> Model.Result
    ) -> Self {
        blockingOperation({ _ in operation }, .just(()), fileID: fileID, line: line) { subject, _ in
            await perform(subject)
        }
    }

    /// A blocking operation without an argument (`.take`): see
    /// ``blockingOperation(_:_:fileID:line:perform:)``.
    public func blockingOperation(
        _ operation: Model.Operation,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        perform: @escaping @Sendable (Subject) -> Model.Result
    ) -> Self {
        blockingOperation({ _ in operation }, .just(()), fileID: fileID, line: line) { subject, _ in perform(subject) }
    }

    /// An operation that records its own history entries through `recorder` (see
    /// ``CallRecorder``), for a call whose effects happen at separate moments: reports name
    /// the call `name(argument)` and show the entries it recorded.
    public func operation<Argument>(
        _ name: String,
        _ generator: Generator<Argument>,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        recording perform: @escaping @Sendable (Subject, Argument, Recorder) -> Void
    ) -> Self {
        let maker = CallMaker(generator: generator, label: { "\(name)(\($0))" }) { argument in
            .sync { subject, recorder in perform(subject, argument, recorder) }
        }
        return adding(maker, isAsync: false, fileID: fileID, line: line)
    }

    /// An operation that records its own history entries and may suspend.
    public func operation<Argument>(
        _ name: String,
        _ generator: Generator<Argument>,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        recording perform: @escaping @Sendable (Subject, Argument, Recorder) async -> Void
    ) -> Self {
        let maker = CallMaker(generator: generator, label: { "\(name)(\($0))" }) { argument in
            .async { subject, recorder in await perform(subject, argument, recorder) }
        }
        return adding(maker, isAsync: true, fileID: fileID, line: line)
    }

    /// The calls of an operation that may suspend whose result `perform` returns: each
    /// recorded around `perform`.
    private static func recordingCalls<Argument>(
        _ makeOperation: @escaping @Sendable (Argument) -> Model.Operation,
        _ generator: Generator<Argument>,
        _ perform: @escaping @Sendable (Subject, Argument) async -> Model.Result
    ) -> CallMaker<Argument> {
        CallMaker(generator: generator, label: { "\(makeOperation($0))" }) { argument in
            .async { subject, recorder in
                await recorder.record(makeOperation(argument)) { await perform(subject, argument) }
            }
        }
    }

    /// The calls of a synchronous operation whose result `perform` returns: each recorded
    /// around `perform`.
    private static func recordingCalls<Argument>(
        _ makeOperation: @escaping @Sendable (Argument) -> Model.Operation,
        _ generator: Generator<Argument>,
        _ perform: @escaping @Sendable (Subject, Argument) -> Model.Result
    ) -> CallMaker<Argument> {
        CallMaker(generator: generator, label: { "\(makeOperation($0))" }) { argument in
            .sync { subject, recorder in
                recorder.record(makeOperation(argument)) { perform(subject, argument) }
            }
        }
    }
}
