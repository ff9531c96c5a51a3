import Primitives

// Every sentence that says why an execution failed: the failure's first lines in a report,
// who waits for what in a deadlock, and the rejection of a generated scenario's history.
// Each is built here from the failure's values and none is parsed back.

extension ExecutionFailure: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .invariant(message, thread, file, line):
            return "invariant failed on T\(thread) at \(file):\(line): \(message)"
        case let .unheldUnlock(thread, mutex, location):
            return Self.misuse(by: thread, at: location, Self.unheldUnlock(thread, mutex))
        case let .joinedTwice(thread, target, location):
            return Self.misuse(by: thread, at: location, Self.joinedTwice(thread, target))
        case let .deadlock(waits, cycle):
            var text = "deadlock: no thread can run\n" + Self.lines(waits)
            if let cycle {
                text += "\n  lock-order cycle: " + (cycle + [cycle[0]]).map { "T\($0)" }.joined(separator: " → ")
            }
            return text
        case .tasksDeadlocked(let tasks):
            return Self.tasksDeadlocked(tasks) + "\n" + tasks.map { "  \($0)" }.joined(separator: "\n")
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
        case .nondeterminism(let nondeterminism):
            return "nondeterminism: \(nondeterminism)"
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

    /// The first line of a deadlock of tasks: how the harness knew nothing would wake them,
    /// at once when they wait for each other, after the grace for a resume from outside when
    /// one may be resumed from there.
    private static func tasksDeadlocked(_ tasks: [BlockedTask]) -> String {
        let awaits = tasks.map(\.awaits)
        if awaits.allSatisfy({ if case .task? = $0 { true } else { false } }) {
            return "deadlock: tasks wait for each other, and nothing outside the harness can wake them"
        }
        let line = "deadlock: tasks wait for good, with nothing left to wake them"
        guard awaits.contains(where: { $0 != nil }) else { return line }
        return line + " (none was resumed from outside the harness within the grace)"
    }

    /// Where a misuse of the seam happened: `File.swift:12` with the module, or `?:0` when
    /// the seam gave no location.
    static func place(_ location: SeamLocation?) -> String {
        "\(location?.fileID ?? "?"):\(location?.line ?? 0)"
    }

    /// A misuse of a primitive, `text`, by `thread` at `location`: it fails the execution as a
    /// check would there.
    private static func misuse(by thread: Int, at location: SeamLocation?, _ text: String) -> String {
        "invariant failed on T\(thread) at \(place(location)): \(text)"
    }

    /// What an unlock of a mutex not held is.
    static func unheldUnlock(_ thread: Int, _ mutex: SharedObject) -> String {
        "T\(thread) released \(mutex), which it does not hold"
    }

    /// What a second join of a thread is.
    static func joinedTwice(_ thread: Int, _ target: Int) -> String {
        "T\(thread) joined T\(target), which was joined already"
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

extension BlockedTask: CustomStringConvertible {
    /// `task 2 'name' waits at File.swift:18 in Type.method() on a continuation, started in File.swift:30 in run()`.
    public var description: String {
        var text = "task \(task)" + (name.map { " '\($0)'" } ?? "")
        text += waitsAt.map { " waits at \($0)" } ?? " waits (where is unknown: no debug information)"
        if let awaits { text += " \(awaits)" }
        if let startedIn, startedIn != waitsAt { text += ", started in \(startedIn)" }
        return text
    }
}

extension BlockedTask.Awaited: CustomStringConvertible {
    /// `for task 3`, `on a continuation`, `for its task group`, `for a task outside the harness`.
    public var description: String {
        switch self {
        case .task(let task): "for task \(task)"
        case .continuation: "on a continuation"
        case .taskGroup: "for its task group"
        case .foreignTask: "for a task outside the harness"
        }
    }
}

extension JobEscape: CustomStringConvertible {
    /// What came from where, the likely causes, and what to do.
    public var description: String {
        let named = taskName.map { " '\($0)'" } ?? ""
        let job = task.map { "task \($0)\(named) was resumed" } ?? "a job was enqueued"
        let source = isMainThread ? "the main thread" : thread.map { "thread '\($0)'" } ?? "an unnamed thread"
        var text = "\(job) from \(source), which the harness does not control"
        if executorsOwned {
            text +=
                ": a thread the scenario started, Dispatch or a callback resumed it;"
                + " resume it from the scenario's threads and tasks"
        } else if isMainThread {
            text += ": a MainActor hop; explore with `isolation: .process` to run MainActor jobs under the harness"
        } else {
            text +=
                ": in the test's own process the platform's executors run what a Task {} started on an actor"
                + " or a Task.detached enqueues, a Task.sleep of such a task on the real clock among them, and"
                + " Dispatch's work; explore with `isolation: .process` to run Task {}, Task.detached, their sleeps"
                + " and MainActor jobs under the harness"
        }
        return text
    }
}

extension StallDiagnosis: CustomStringConvertible {
    /// Where the thread waits and why that stalls it, or where it computes; what to use
    /// instead; and where the harness last saw it.
    public var description: String {
        let text: String
        let caller = codeFrame.map { " (called from \($0))" } ?? ""
        switch (activity, blockedIn) {
        case (.blocked, let blocked?):
            text = "blocked in \(blocked.frame)\(caller): \(Self.advice(blocked.blocker))"
        case (.blocked, nil):
            text = "blocked outside the seam\(caller): in code the harness does not control"
        case (.busy, _):
            text =
                "busy outside the seam\(codeFrame.map { " (in \($0))" } ?? ""): computing on a CPU, not waiting: "
                + "an endless loop, or a spin on state the harness does not see; spin with Seam.yield, or wait on a "
                + "SeamCondition"
        }
        switch lastSeen {
        case let .step(kind, location)?:
            return text + "; its last step was \(kind) at \(location.fileName):\(location.line)"
        case .started(let location)?:
            return text + "; it was started at \(location.fileName):\(location.line) and has taken no step since"
        case nil:
            return text
        }
    }

    /// What a wait the harness knows is, and what to use instead.
    static func advice(_ blocker: Blocker) -> String {
        switch blocker {
        case .synchronizationMutex: "a Synchronization.Mutex, which the harness does not control; use SeamMutex"
        case .foundationLock: "a Foundation lock, which the harness does not control; use SeamMutex and SeamCondition"
        case .dispatchSync:
            "DispatchQueue.sync, which the harness does not control; use SeamMutex, or a task on the scenario's "
                + "executor"
        case .dispatchSemaphore: "a Dispatch semaphore or group, which the harness does not control; use SeamCondition"
        case .realSleep: "a real sleep; use Seam.sleep, or Task.sleep on SeamClock, which run on virtual time"
        case .lockOutsideTheSeam: "a lock taken outside the seam; use SeamMutex and SeamCondition"
        case .systemCall: "a blocking system call, which only a real thread can wait in"
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

/// Something the harness does not schedule, in words.
extension Nondeterminism: CustomStringConvertible {
    public var description: String {
        if let why = whyOSThreads { return "run again on OS threads: \(why)" }
        guard case .foreignClock(let clock) = self else { preconditionFailure("\(self) is worded above") }
        return "a task slept on \(clock), whose durations the harness cannot put on its virtual clock; sleep on "
            + "ContinuousClock, SuspendingClock or SeamClock"
    }

    /// Why an execution on coroutines needed OS threads (`T1 calls pthread_self at Foo.swift:12`);
    /// `nil` for what OS threads do not help.
    var whyOSThreads: String? {
        switch self {
        case .cancelledCoroutine(let thread):
            "T\(thread) is cancelled"
        case let .threadSpecificStorage(thread, location):
            "T\(thread) uses thread-specific storage at \(location.fileName):\(location.line)"
        case let .threadIdentity(thread, .lockOwnedByOSThread, place):
            "T\(thread) waits" + (place.map { " at \($0.file):\($0.line)" } ?? "")
                + " for a lock that records its owner's OS thread (a Synchronization.Mutex), held by another thread "
                + "across a scheduling point"
        case let .threadIdentity(thread, function, place):
            "T\(thread) calls \(function.rawValue)" + (place.map { " at \($0.file):\($0.line)" } ?? "")
        case .foreignClock:
            nil
        }
    }
}

/// An exploration that fell back to OS threads, in words.
extension OSThreadFallback: CustomStringConvertible {
    /// `ran on OS threads from schedule 3: T1 calls pthread_self at Foo.swift:12`.
    public var description: String {
        "ran on OS threads from schedule \(schedule): \(reason.whyOSThreads ?? reason.description)"
    }
}
