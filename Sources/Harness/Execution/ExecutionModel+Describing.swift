import Primitives

extension ExecutionModel {
    /// Names for the shared objects of one execution, given in order of first use and by
    /// kind (`mutex#1`, `condition#2`): object addresses differ from one execution to the
    /// next, the order of first use does not.
    struct ObjectNames {
        private var names = ObjectMap<SharedObject>()
        /// How many objects of each kind are named, kept without a dictionary's allocation.
        private var mutexes = 0
        private var conditions = 0
        private var atomics = 0
        private var queues = 0
        private var semaphores = 0
        private var groups = 0

        /// The name of `object`, a `kind`, naming it if it has none yet.
        mutating func name(_ object: ObjectIdentifier, _ kind: SharedObject.Kind) -> SharedObject {
            if let name = names[object] { return name }
            let name = SharedObject(kind, nextNumber(of: kind))
            names.set(object, to: name)
            return name
        }

        /// Names `insides`, the seam objects that carry out a drop-in's calls, as the drop-in
        /// `dropIn` is named, so that they take no number among the objects of their kinds.
        mutating func name(insides: [ObjectIdentifier], as dropIn: SharedObject) {
            for inside in insides { names.insertIfAbsent(inside, dropIn) }
        }

        /// Forgets every name, keeping the storage for the names to come: a new set of names,
        /// every count at 0, in this one's storage.
        mutating func removeAll() {
            names.removeAll()
            (mutexes, conditions, atomics, queues, semaphores, groups) = (0, 0, 0, 0, 0, 0)
        }

        /// Counts one more object of `kind`; returns its number, from 1.
        private mutating func nextNumber(of kind: SharedObject.Kind) -> Int {
            switch kind {
            case .mutex:
                mutexes += 1
                return mutexes
            case .condition:
                conditions += 1
                return conditions
            case .atomic:
                atomics += 1
                return atomics
            case .queue:
                queues += 1
                return queues
            case .semaphore:
                semaphores += 1
                return semaphores
            case .group:
                groups += 1
                return groups
            }
        }
    }

    /// The name of `object`, a `kind`, in reports and traces.
    mutating func name(_ object: ObjectIdentifier, _ kind: SharedObject.Kind) -> SharedObject {
        objectNames.name(object, kind)
    }

    /// What `operation` acts on, as a step shows it.
    mutating func target(of operation: PendingOperation) -> TraceTarget? {
        switch operation {
        case .lock(let object, _), .tryLock(let object, _), .unlock(let object), .reacquire(let object):
            .object(name(object, .mutex))
        case .wait(let condition, _, _), .signal(let condition), .broadcast(let condition):
            .object(name(condition, .condition))
        case .atomic(let cell, _):
            .object(name(cell, .atomic))
        case .join(let thread), .cancel(let thread):
            .thread(thread)
        case .spawn:
            .thread(threads.count)
        case .sleep(let deadline):
            .deadline(nanoseconds: deadline > clock ? deadline - clock : 0)
        case .enqueueJob(let task):
            .job(task: task.map { $0 + 1 })
        case .start, .cancellationPoint, .yield, .resume, .handoff, .takeJob, .quiesce, .awaitTasks:
            nil
        }
    }

    /// What `thread` waits to do, for a replay's report of a thread it cannot run; `nil` when
    /// it waits for no operation (never so for a candidate to run: each is ready).
    func pendingKind(of thread: Int) -> OperationKind? {
        guard case .ready(let operation, _) = threads[thread].state else { return nil }
        return operation.kind
    }

    /// Says who waits for what when nothing can run: tasks that wait for good, when no
    /// thread of the scenario's waits; otherwise a deadlock, with the waits-for cycle when
    /// there is one, or, once T0 has finished, threads left running, their waits followed by
    /// the tasks'. The harness's own threads and waits (its lanes, T0 waiting for tasks) are
    /// left out.
    mutating func stuckFailure(blockedTasks: [BlockedTask]) -> ExecutionFailure {
        var waits: [Wait] = []
        for index in threads.indices where !isHarnessWait(of: index) {
            let reason: ThreadWait.Reason
            let location: SeamLocation?
            switch threads[index].state {
            case .ready(.lock(let mutex, _), let place), .ready(.reacquire(let mutex), let place):
                (reason, location) = (.lock(mutex: name(mutex, .mutex), holder: owner(of: mutex)), place)
            case .ready(.join(let target), let place):
                (reason, location) = (.join(thread: target), place)
            case .waiting(let condition, _, _, let place):
                (reason, location) = (.signal(condition: name(condition, .condition)), place)
            case .ready(let operation, let place):
                (reason, location) = (.operation(operation.kind), place)
            case .running, .finished:
                continue
            }
            waits.append(.thread(ThreadWait(thread: index, reason: reason, location: location)))
        }
        if waits.isEmpty, !blockedTasks.isEmpty {
            return .tasksDeadlocked(tasks: blockedTasks)
        }
        let waitsFor = Dictionary(
            uniqueKeysWithValues: waits.compactMap { wait in
                wait.threadWait.flatMap { thread in thread.waitsFor.map { (thread.thread, $0) } }
            })
        waits += blockedTasks.map(Wait.task)
        if threads[0].isFinished {
            return .threadsStillRunning(waits: waits)
        }
        return .deadlock(waits: waits, cycle: Self.cycle(in: waitsFor))
    }

    /// Whether `thread` is the harness's own (a lane, the timer thread), waits for the task
    /// executor to fall quiet (T0 waiting for tasks to end), or waits on the harness's own
    /// synchronization.
    private func isHarnessWait(of thread: Int) -> Bool {
        if threads[thread].isExecutorThread { return true }
        switch threads[thread].state {
        case .ready(.awaitTasks, _): return true
        case .waiting(let condition, _, _, _): return isInternal(condition)
        case .ready(.lock(let mutex, _), _), .ready(.reacquire(let mutex), _): return isInternal(mutex)
        default: return false
        }
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
