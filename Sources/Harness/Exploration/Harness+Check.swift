import Primitives

extension Harness {
    /// Checks an invariant inside a scenario: when `condition` is false, the execution fails
    /// with `message` and is wound down. In a stress iteration it records the failure as the
    /// iteration's outcome and returns. Anywhere else it traps like `precondition`.
    public static func check(
        _ condition: @autoclosure () -> Bool,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        guard !condition() else { return }
        let text = message()
        guard let execution = Execution.current, let thread = Seam.currentThread else {
            if let stress = StressIteration.current {
                return stress.record(
                    .checkFailed(message: text.isEmpty ? "check failed" : text, file: "\(file)", line: line))
            }
            preconditionFailure("Harness.check failed outside a controlled execution: \(text)", file: file, line: line)
        }
        execution.fail(
            .invariant(
                message: text.isEmpty ? "check failed" : text, thread: thread.rawValue, file: "\(file)", line: line))
    }

    static func runReportingErrors(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            reportThrown(error)
        }
    }

    /// Fails the running execution with `error`, which the calling thread's body threw; an
    /// error thrown outside an execution is dropped.
    @Sendable
    static func reportThrown(_ error: any Error) {
        guard let execution = Execution.current, let thread = Seam.currentThread else { return }
        execution.fail(.threadThrew(thread: thread.rawValue, error: "\(error)"))
    }

    /// Fails the running execution at its next decision, as a failed check at `file`:`line` on
    /// the calling thread, without ending the thread (which may be recording an issue).
    /// Returns whether the calling thread is one of an execution's.
    static func failRunningExecution(_ message: String, file: String, line: UInt) -> Bool {
        guard let execution = Execution.current, let thread = Seam.currentThread else {
            return false
        }
        execution.failAtNextDecision(.invariant(message: message, thread: thread.rawValue, file: file, line: line))
        return true
    }
}
