import Primitives

extension ExecutionModel {
    /// Names for the shared objects of one execution, given in order of first use and by
    /// kind (`mutex#1`, `condition#2`): object addresses differ from one execution to the
    /// next, the order of first use does not.
    struct ObjectNames {
        private var names = ObjectMap<String>()
        private var counts: [String: Int] = [:]

        /// The name of `object`, a `kind`, naming it if it has none yet.
        mutating func name(_ object: ObjectIdentifier, _ kind: String) -> String {
            if let name = names[object] { return name }
            let number = counts[kind, default: 0] + 1
            counts[kind] = number
            let name = "\(kind)#\(number)"
            names.set(object, to: name)
            return name
        }
    }

    /// The name of `object`, a `kind`, in reports and traces.
    mutating func name(_ object: ObjectIdentifier, _ kind: String) -> String {
        objectNames.name(object, kind)
    }

    /// What `operation` acts on, as a step shows it.
    mutating func target(of operation: PendingOperation) -> String? {
        switch operation {
        case .lock(let object, _), .tryLock(let object, _), .unlock(let object), .reacquire(let object):
            name(object, "mutex")
        case .wait(let condition, _, _), .signal(let condition), .broadcast(let condition):
            name(condition, "condition")
        case .atomic(let cell, _):
            name(cell, "atomic")
        case .join(let thread), .cancel(let thread):
            "T\(thread)"
        case .spawn:
            "T\(threads.count)"
        case .sleep(let deadline):
            "until +\(Double(deadline > clock ? deadline - clock : 0) / 1_000_000) ms"
        case .enqueueJob(let task):
            task.map { "task \($0 + 1)" } ?? "a job of no task"
        case .start, .cancellationPoint, .yield, .resume, .handoff, .takeJob:
            nil
        }
    }

    /// What `thread` waits to do, for a replay's report of a thread it cannot run.
    func describePending(_ thread: Int) -> String {
        guard case .ready(let operation, _) = threads[thread].state else { return "\(threads[thread].state)" }
        return operation.kind.description
    }

    /// Says who waits for what when nothing can run: tasks that wait for good, when no
    /// thread of the scenario's waits; otherwise a deadlock, with the waits-for cycle when
    /// there is one, or, once T0 has finished, threads left running, their waits followed by
    /// the tasks'. The harness's own threads and waits (its lanes, T0 waiting for tasks) are
    /// left out.
    mutating func stuckFailure(blockedTasks: [BlockedTask]) -> ExecutionFailure {
        var waits: [String] = []
        var waitsFor: [Int: Int] = [:]
        for index in threads.indices where !isHarnessWait(of: index) {
            switch threads[index].state {
            case .ready(.lock(let mutex, _), let location), .ready(.reacquire(let mutex), let location):
                let owner = owner(of: mutex)
                if let owner { waitsFor[index] = owner }
                let holder = owner.map { "T\($0)" } ?? "nobody"
                waits.append("T\(index) waits to lock \(name(mutex, "mutex")) held by \(holder)\(Self.place(location))")
            case .ready(.join(let target), let location):
                waitsFor[index] = target
                waits.append("T\(index) waits to join T\(target)\(Self.place(location))")
            case .waiting(let condition, _, _, let location):
                let object = name(condition, "condition")
                waits.append("T\(index) waits on \(object), which nobody will signal\(Self.place(location))")
            case .ready(let operation, let location):
                waits.append("T\(index) waits to \(operation.kind)\(Self.place(location))")
            case .running, .finished:
                break
            }
        }
        if waits.isEmpty, !blockedTasks.isEmpty {
            return .tasksDeadlocked(tasks: blockedTasks)
        }
        waits += blockedTasks.map(\.description)
        if threads[0].isFinished {
            return .threadsStillRunning(waits: waits)
        }
        return .deadlock(waits: waits, cycle: Self.cycle(in: waitsFor))
    }

    /// Whether `thread` is the harness's own (a lane, the timer thread) or waits on the
    /// harness's own synchronization (T0 waiting for tasks to end).
    private func isHarnessWait(of thread: Int) -> Bool {
        if threads[thread].isExecutorThread { return true }
        switch threads[thread].state {
        case .waiting(let condition, _, _, _): return isInternal(condition)
        case .ready(.lock(let mutex, _), _), .ready(.reacquire(let mutex), _): return isInternal(mutex)
        default: return false
        }
    }

    private static func place(_ location: SeamLocation?) -> String {
        location.map { " at \($0.fileName):\($0.line)" } ?? ""
    }

    /// A cycle in a graph where each thread waits for at most one other.
    private static func cycle(in waitsFor: [Int: Int]) -> [Int]? {
        for start in waitsFor.keys.sorted() {
            var seen: [Int] = []
            var current = start
            while true {
                if let index = seen.firstIndex(of: current) { return Array(seen[index...]) }
                seen.append(current)
                guard let next = waitsFor[current] else { break }
                current = next
            }
        }
        return nil
    }
}
