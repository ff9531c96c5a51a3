/// Why an execution failed.
public enum ExecutionFailure: Sendable, Hashable, Codable, CustomStringConvertible {
    /// An invariant checked with ``Harness/check(_:_:file:line:)`` did not hold.
    case invariant(message: String, thread: Int, file: String, line: UInt)
    /// No thread could run while some had not finished; `waits` says who waits for what, and
    /// `cycle` names a lock-order cycle when there is one.
    case deadlock(waits: [String], cycle: [Int]?)
    /// The scenario's body returned and its threads could not all finish.
    case threadsStillRunning(waits: [String])
    /// The execution took more steps than its bound: a livelock or an endless loop.
    case stepBoundExceeded(Int)
    /// A thread's body threw.
    case threadThrew(thread: Int, error: String)
    /// A task the scenario started threw.
    case taskThrew(error: String)
    /// A thread did not reach a scheduling point for too long: blocked outside the seam.
    /// `diagnosis` says where, read from its stack, and what to use instead.
    case stalled(thread: Int, seconds: Double, diagnosis: String)
    /// More threads than the harness can control at once.
    case tooManyThreads(Int)
    /// Something the harness does not schedule took part in the execution.
    case nondeterminism(String)
    /// A replayed token no longer fits the code.
    case replayDiverged(step: Int, detail: String)
    /// A thread crashed the process (under ``ExplorationIsolation/process``, the child
    /// process): `signal` ended it, and `cause` holds the runtime's fatal message and the
    /// crashing thread's frames outside the harness, as far as the process printed them.
    case crashed(signal: Int32, cause: String)
    /// A signal from outside ended the isolated child process while it ran this schedule, the
    /// last it began: SIGKILL (`kill -9`, the OOM killer) or another signal that is not a
    /// crash (``ExplorationIsolation/process``). Not a crash of the code under test, though
    /// the schedule may have led to it (by taking all the memory).
    case killed(signal: Int32)

    public var description: String {
        switch self {
        case let .invariant(message, thread, file, line):
            return "invariant failed on T\(thread) at \(file):\(line): \(message)"
        case let .deadlock(waits, cycle):
            var text = "deadlock: no thread can run\n" + waits.map { "  " + $0 }.joined(separator: "\n")
            if let cycle {
                text += "\n  lock-order cycle: " + (cycle + [cycle[0]]).map { "T\($0)" }.joined(separator: " → ")
            }
            return text
        case let .threadsStillRunning(waits):
            return "threads still running when the scenario ended\n" + waits.map { "  " + $0 }.joined(separator: "\n")
        case let .stepBoundExceeded(bound):
            return "step bound of \(bound) exceeded: a livelock or an endless loop"
        case let .threadThrew(thread, error):
            return "T\(thread) threw: \(error)"
        case .taskThrew(let error):
            return "a task threw: \(error)"
        case let .stalled(thread, seconds, diagnosis):
            return """
                T\(thread) ran for \(seconds) s without reaching a scheduling point: \(diagnosis)
                (\(ExplorationOptions.Variable.stallTimeout) sets the timeout)
                """
        case let .tooManyThreads(limit):
            return "the scenario started more than \(limit) threads"
        case .nondeterminism(let detail):
            return "nondeterminism: \(detail)"
        case let .replayDiverged(step, detail):
            return "replay diverged at step \(step): \(detail)"
        case let .crashed(signal, cause):
            return "a thread crashed (signal \(signal))" + (cause.isEmpty ? "" : "\n" + cause)
        case .killed(let signal):
            return """
                the isolated child process was killed (signal \(signal)) from outside while it ran this schedule, \
                the last it began: not a crash of the code under test (the OOM killer, or kill -\(signal))
                """
        }
    }
}

extension ExecutionFailure {
    /// What two executions must share to fail "the same way" while a schedule is shrunk:
    /// the check that failed (its place, not its message's values), the kind of deadlock or
    /// hang, the error thrown. `nil` for failures a shrink cannot re-run: a stall (each
    /// try would wait out the timeout), a crash, nondeterminism, a divergence.
    var shrinkingKey: String? {
        switch self {
        case let .invariant(_, _, file, line): "check \(file):\(line)"
        case .deadlock: "deadlock"
        case .threadsStillRunning: "threads still running"
        case .stepBoundExceeded: "step bound"
        case let .threadThrew(_, error): "threw \(error)"
        case let .taskThrew(error): "task threw \(error)"
        case .tooManyThreads: "too many threads"
        case .stalled, .nondeterminism, .replayDiverged, .crashed, .killed: nil
        }
    }
}
