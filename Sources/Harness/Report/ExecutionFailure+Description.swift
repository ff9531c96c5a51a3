import Primitives

// Every sentence that says why an execution failed: the failure's first lines in a report,
// who waits for what in a deadlock, and the rejection of a generated scenario's history.
// Each is built here from the failure's values and none is parsed back.

extension ExecutionFailure: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .invariant(message, thread, file, line):
            return "invariant failed on T\(thread) at \(file):\(line): \(message)"
        case let .deadlock(waits, cycle):
            var text = "deadlock: no thread can run\n" + Self.lines(waits)
            if let cycle {
                text += "\n  lock-order cycle: " + (cycle + [cycle[0]]).map { "T\($0)" }.joined(separator: " → ")
            }
            return text
        case .tasksDeadlocked(let tasks):
            return "deadlock: tasks wait for good, with nothing left to wake them\n"
                + tasks.map { "  \($0)" }.joined(separator: "\n")
        case let .threadsStillRunning(waits):
            return "threads still running when the scenario ended\n" + Self.lines(waits)
        case let .forbiddenOutcome(outcome, thread):
            return "the scenario returned the forbidden outcome \(outcome) on T\(thread)"
        case let .historyRejected(rejection, thread):
            return "linearizability check failed on T\(thread): \(rejection)"
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
        case .escaped(let escape):
            return "escape: \(escape)"
        case let .crashed(signal, cause):
            return "a thread crashed (signal \(signal))" + (cause.isEmpty ? "" : "\n" + cause)
        case .killed(let signal):
            return """
                the isolated child process was killed (signal \(signal)) from outside while it ran this schedule, \
                the last it began: not a crash of the code under test (the OOM killer, or kill -\(signal))
                """
        }
    }

    /// The waits, one indented line each.
    private static func lines(_ waits: [Wait]) -> String {
        waits.map { "  \($0)" }.joined(separator: "\n")
    }
}

extension Wait: CustomStringConvertible {
    /// `T0 waits to lock mutex#2 held by T1 at Bank.swift:7`, or a blocked task's line.
    public var description: String {
        switch self {
        case .thread(let wait): "\(wait)"
        case .task(let task): "\(task)"
        }
    }
}

extension ThreadWait: CustomStringConvertible {
    /// The thread's label, then ``waiting``: `T0 waits to lock mutex#2 held by T1 at Bank.swift:7`.
    public var description: String { "T\(thread) \(waiting)" }

    /// What the thread waits for and where, without the thread: `waits to join T1 at File.swift:9`.
    public var waiting: String {
        let place = location.map { " at \($0.fileName):\($0.line)" } ?? ""
        switch reason {
        case let .lock(mutex, holder):
            return "waits to lock \(mutex) held by \(holder.map { "T\($0)" } ?? "nobody")\(place)"
        case .join(let thread):
            return "waits to join T\(thread)\(place)"
        case .signal(let condition):
            return "waits on \(condition), which nobody will signal\(place)"
        case .operation(let operation):
            return "waits to \(operation)\(place)"
        }
    }
}

extension HistoryRejection: CustomStringConvertible {
    /// The verdict in the checker's words, or which call threw what.
    public var description: String {
        switch self {
        case .verdict(_, let explanation):
            explanation
        case let .foreignError(call, error, expected):
            "\(call) threw \(error), which is not a \(expected): the model's results have no place for it"
        }
    }
}
