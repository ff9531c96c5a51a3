import Primitives

/// The threads of one execution, as the scenario's body starts them.
///
/// A scenario's body runs on thread T0. Threads it spawns are numbered in spawn order
/// and joined automatically when the body returns; a thread that cannot finish then is a
/// failure (threads still running).
public final class Scenario: @unchecked Sendable {
    private var unjoined: [SeamThread] = []

    init() {}

    /// Starts a controlled thread running `body`. A thrown error fails the execution.
    @discardableResult
    public func spawn(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () throws -> Void
    ) -> ScenarioThread {
        let result = Seam.spawnThread(file: file, line: line) {
            Harness.runReportingErrors(body)
        }
        switch result {
        case .success(let thread):
            unjoined.append(thread)
            return ScenarioThread(thread: thread, scenario: self)
        case .failure(let error):
            preconditionFailure("the harness could not start a scenario thread: \(error)")
        }
    }

    /// Joins every spawned thread not joined yet.
    public func joinAll(file: StaticString = #fileID, line: UInt = #line) {
        while let thread = unjoined.first {
            join(thread, file: file, line: line)
        }
    }

    func join(_ thread: SeamThread, file: StaticString, line: UInt) {
        unjoined.removeAll { $0.controlledID == thread.controlledID }
        do {
            try thread.join(file: file, line: line)
        } catch {
            preconditionFailure("joining a scenario thread failed: \(error)")
        }
    }
}

/// A thread a ``Scenario`` started.
public struct ScenarioThread: Sendable {
    let thread: SeamThread
    let scenario: Scenario

    /// The thread's number in reports (`T1` is 1).
    public var number: Int { thread.controlledID?.rawValue ?? -1 }

    /// Waits until the thread has finished (a scheduling point).
    public func join(file: StaticString = #fileID, line: UInt = #line) {
        scenario.join(thread, file: file, line: line)
    }
}
