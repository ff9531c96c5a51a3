/// A property-based linearizability test: generated scenarios of operations on a fresh
/// instance of a type under test, each explored under controlled schedules, each execution's
/// history checked against a sequential model, and a failing scenario shrunk to the smallest
/// that still fails.
///
/// ```swift
/// @Test func queueIsLinearizable() {
///     LinearizabilityTest(model: QueueModel<Int>()) { LockedQueue<Int>() }
///         .operation(QueueOperation.enqueue, .int(in: 1...9)) { queue, value in
///             queue.enqueue(value)
///             return .enqueued
///         }
///         .operation(.dequeue) { queue in
///             queue.dequeue().map(QueueResult.dequeued) ?? .empty
///         }
///         .check()
/// }
/// ```
///
/// **Scenarios.** Each has an initial part run alone, a parallel part of threads (or tasks)
/// that run their calls at once, and a final part run alone once they have finished; the
/// shape and count are ``LinearizabilityOptions``. Each scenario is drawn from a seed of its
/// own, derived from the campaign's seed (`HARNESS_SEED`), and explored with
/// ``Harness`` machinery under the configured strategy (`HARNESS_STRATEGY`) with a budget of
/// schedules (`HARNESS_SCENARIO_SCHEDULES`). Every call's invocation and response are
/// recorded; at the end of each execution ``LinearizabilityChecker`` decides whether some
/// sequential order of the calls, consistent with their real-time order, gives the same
/// results from the model. If not, the execution fails with the verdict in words; so does any
/// other failure the harness detects (a deadlock, a crash, a broken ``Harness/check(_:_:file:line:)``).
///
/// **Shrinking.** A failing scenario is shrunk: fewer threads, fewer calls, simpler arguments
/// (``Generator/simpler(than:)``), each candidate explored again and kept when it fails the
/// same way (same kind of failure; for a broken check, the same check). The report shows the
/// smallest as a table with one column per thread and each call's result, says why no
/// sequential order explains it, draws its schedule, and prints one replay token for scenario
/// and schedule together: the token carries the scenario's code (its seed and the path of
/// shrink steps, ``ReplayToken/generatedScenario``), so `HARNESS_REPLAY` regenerates the
/// scenario and replays the schedule.
///
/// **Operations** are synchronous, `async` (then clients are tasks), throwing (when the
/// model's result is a `Swift.Result`, the error is the result), or record their own history
/// entries through a ``CallRecorder`` (`recording:`), for calls whose effects happen at
/// separate moments. A *blocking* operation
/// (``blockingOperation(_:_:fileID:line:perform:)``) may wait for other calls, as the model
/// says with ``SequentialModel/blocks(_:)``: its calls run in the parallel part on threads,
/// and a call still waiting once nothing else can run is checked as blocked (justified by the
/// model's state, or a lost wake-up) rather than reported as a deadlock. The type under test
/// is made fresh for every execution, on the scenario's thread `T0`; ``tearDown(_:)`` runs
/// after the final part.
public struct LinearizabilityTest<Subject: Sendable, Model: SequentialModel & Sendable>: Sendable
where Model.Operation: Sendable, Model.Result: Sendable {
    /// The recorder an operation declared with `recording:` records its entries with.
    public typealias Recorder = CallRecorder<Model.Operation, Model.Result>

    let model: Model
    let make: @Sendable () -> Subject
    var operations: [OperationSpec] = []
    var tearDownBody: (@Sendable (Subject) -> Void)?
    var requestedClients: ScenarioClients?

    /// A test of the values `make` returns, one per execution, against `model` (the state a
    /// fresh value is in). Add operations with `operation(…)`, then call ``check(_:options:sourceLocation:)``.
    public init(model: Model, _ make: @escaping @Sendable () -> Subject) {
        self.model = model
        self.make = make
    }

    /// This test with `body` run on `T0` at the end of every execution, after the final part
    /// and before the history is checked: to stop a subject that owns threads.
    public func tearDown(_ body: @escaping @Sendable (Subject) -> Void) -> Self {
        var test = self
        test.tearDownBody = body
        return test
    }

    /// This test with its clients run as `clients`. By default they are threads, or tasks
    /// when some operation is `async` (which a thread cannot call).
    public func clients(_ clients: ScenarioClients) -> Self {
        var test = self
        test.requestedClients = clients
        return test
    }

    /// Whether some operation is blocking (``blockingOperation(_:_:fileID:line:perform:)``).
    var hasBlockingOperations: Bool { operations.contains(where: \.isBlocking) }

    /// Whether some synchronous operation is blocking: one whose calls wait on a thread.
    var hasSynchronousBlockingOperations: Bool { operations.contains { $0.isBlocking && !$0.isAsync } }

    /// Whether the clients are tasks.
    var usesTasks: Bool {
        switch requestedClients {
        case .tasks?: true
        case .threads?: false
        case nil: operations.contains(where: \.isAsync)
        }
    }
}

/// What runs a generated scenario's calls.
public enum ScenarioClients: Sendable, Hashable {
    /// Controlled threads (``Scenario/spawn(file:line:_:)``): `T0` runs the initial and final
    /// parts, one spawned thread each client of the parallel part.
    case threads
    /// Tasks on the harness's executor (``Scenario/task(name:file:line:_:)``): a task named
    /// `initial`, one named `client N` for each client of the parallel part, and one named
    /// `final`, each part waited for before the next starts.
    case tasks
}

extension LinearizabilityTest {
    /// One operation the test may call: how to draw a call of it.
    struct OperationSpec: Sendable {
        /// Where the operation was declared, `File.swift:12`: messages name it so.
        let declaredAt: String
        /// The name of its argument's generator.
        let generatorName: String
        /// Whether its calls suspend, so that they need a task.
        let isAsync: Bool
        /// Whether its calls may wait for other calls: drawn for the parallel part only.
        let isBlocking: Bool
        /// Draws a call, or `nil` when the generator cannot produce an argument.
        let draw: @Sendable (inout ScenarioRandom) -> Call?
    }

    /// One call of a generated scenario: an operation with its argument.
    struct Call: Sendable {
        /// How reports name it: `enqueue(3)`.
        let label: String
        /// The operation's place among the test's operations.
        let operation: Int
        /// Its argument in words, `nil` for an operation without one: calls with the same
        /// argument touch the same element, which generation and shrinking look at.
        let argument: String?
        /// Makes the call, recording it.
        let perform: Perform
        /// Whether the call may wait for other calls: it stays in the parallel part.
        let isBlocking: Bool
        /// The same call with simpler arguments, simplest first.
        let simpler: @Sendable () -> [Call]
    }

    /// How a call is made: on a thread or in a task.
    enum Perform: Sendable {
        case sync(@Sendable (Subject, Recorder) -> Void)
        case async(@Sendable (Subject, Recorder) async -> Void)
    }

    /// The calls an operation makes, for one argument type: how to name and make a call
    /// with a given argument, and the generator its simpler arguments come from.
    struct CallMaker<Argument: Sendable>: Sendable {
        let generator: Generator<Argument>
        let label: @Sendable (Argument) -> String
        let perform: @Sendable (Argument) -> Perform
        /// The operation's place among the test's operations, set when it is added.
        var operation = 0
        /// Whether the operation is blocking, set when it is added.
        var isBlocking = false

        init(
            generator: Generator<Argument>,
            label: @escaping @Sendable (Argument) -> String,
            perform: @escaping @Sendable (Argument) -> Perform
        ) {
            self.generator = generator
            self.label = label
            self.perform = perform
        }

        func call(_ argument: Argument) -> Call {
            let words = Argument.self == Void.self ? nil : "\(argument)"
            return Call(
                label: label(argument), operation: operation, argument: words, perform: perform(argument),
                isBlocking: isBlocking
            ) { [self] in
                generator.simpler(than: argument).map(call)
            }
        }
    }

    /// This test with an operation added.
    func adding<Argument>(
        _ maker: CallMaker<Argument>,
        isAsync: Bool,
        isBlocking: Bool = false,
        fileID: StaticString,
        line: UInt
    ) -> Self {
        var test = self
        var numbered = maker
        numbered.operation = operations.count
        numbered.isBlocking = isBlocking
        let maker = numbered
        let place = "\(fileID)".split(separator: "/").last.map(String.init) ?? "\(fileID)"
        test.operations.append(
            OperationSpec(
                declaredAt: "\(place):\(line)", generatorName: maker.generator.name, isAsync: isAsync,
                isBlocking: isBlocking
            ) { random in
                maker.generator.value(using: &random).map(maker.call)
            })
        return test
    }
}
