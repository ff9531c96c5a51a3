import Primitives

extension Harness {
    /// Fails the execution that controls the calling thread with the failure `failure` makes
    /// of the thread's number, and winds the thread down: what the harness's own checks (a
    /// stress search's outcome, a generated scenario's history) use instead of a message.
    /// Traps outside a controlled execution, where no failure can be recorded.
    static func failExecution(_ failure: (Int) -> ExecutionFailure) -> Never {
        guard let execution = Execution.current, let thread = Seam.currentThread else {
            preconditionFailure("the harness failed an execution from a thread it does not control")
        }
        execution.fail(failure(thread.rawValue))
    }
}
