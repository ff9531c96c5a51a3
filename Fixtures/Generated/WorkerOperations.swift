import Harness
import Primitives

/// A started ``WorkerThread`` and the log its work appends to, on the worker's thread.
public struct WorkerSubject: Sendable {
    /// The values appended by work that ran, in the order it ran.
    final class Log: @unchecked Sendable {
        /// Touched only on the worker's thread.
        var values: [Int] = []
    }

    /// The worker under test.
    public let worker: WorkerThread
    let log = Log()

    /// A started worker.
    public init() {
        worker = WorkerThread()
        do {
            _ = try worker.start()
        } catch {
            Harness.check(false, "the worker did not start: \(error)")
        }
    }
}

/// A worker thread as a sequential model: work runs in the order it was accepted, `sync`
/// sees everything accepted before it, and nothing is accepted once stopping began.
public struct WorkerModel: SequentialModel, Sendable, CustomStringConvertible {
    /// The worker's operations.
    public enum Operation: Hashable, Sendable, CustomStringConvertible {
        /// Submits work that appends the value to the log.
        case submit(Int)
        /// Runs work that appends the value and returns the log.
        case sync(Int)
        /// Stops the worker.
        case stop

        public var description: String {
            switch self {
            case .submit(let value): "submit(\(value))"
            case .sync(let value): "sync(\(value))"
            case .stop: "stop()"
            }
        }
    }

    /// What they return.
    public enum Result: Hashable, Sendable, CustomStringConvertible {
        case accepted
        case log([Int])
        case stopped
        case refused(WorkerThreadError)

        public var description: String {
            switch self {
            case .accepted: "accepted"
            case .log(let values): "\(values)"
            case .stopped: "stopped"
            case .refused(.stopped): "refused (stopped)"
            case .refused(.notStarted): "refused (not started)"
            case .refused(let error): "refused (\(error))"
            }
        }
    }

    /// The values of the work accepted so far, in order.
    public var log: [Int] = []
    /// Whether stopping began.
    public var stopped = false

    /// A started worker with nothing done.
    public init() {}

    public mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .submit(let value):
            guard !stopped else { return .refused(.stopped) }
            log.append(value)
            return .accepted
        case .sync(let value):
            guard !stopped else { return .refused(.stopped) }
            log.append(value)
            return .log(log)
        case .stop:
            stopped = true
            return .stopped
        }
    }

    public var description: String { "worker \(stopped ? "stopped" : "running"), log \(log)" }
}

/// The generated scenarios of a worker thread: submits and syncs of values 0 to 9, and now
/// and then a stop; the worker is stopped after every execution.
public enum WorkerOperations {
    /// The operations on a fresh, started worker.
    public static func test() -> LinearizabilityTest<WorkerSubject, WorkerModel> {
        let values = Generator.int(in: 0...9)
        let submit: @Sendable (WorkerSubject, Int) -> WorkerModel.Result = { subject, value in
            do throws(WorkerThreadError) {
                try subject.worker.submit { subject.log.values.append(value) }
                return .accepted
            } catch {
                return .refused(error)
            }
        }
        let sync: @Sendable (WorkerSubject, Int) -> WorkerModel.Result = { subject, value in
            do {
                return .log(
                    try subject.worker.sync {
                        subject.log.values.append(value)
                        return subject.log.values
                    })
            } catch let error as WorkerThreadError {
                return .refused(error)
            } catch {
                Harness.check(false, "sync threw \(error)")
                return .stopped
            }
        }
        return LinearizabilityTest(model: WorkerModel()) { WorkerSubject() }
            .operation(WorkerModel.Operation.submit, values, perform: submit)
            .operation(WorkerModel.Operation.submit, values, perform: submit)
            .operation(WorkerModel.Operation.sync, values, perform: sync)
            .operation(WorkerModel.Operation.sync, values, perform: sync)
            .operation(.stop) { subject in
                subject.worker.stop()
                return .stopped
            }
            .tearDown { $0.worker.stop() }
    }
}
