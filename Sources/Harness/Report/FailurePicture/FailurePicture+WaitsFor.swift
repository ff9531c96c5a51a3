import Primitives

extension FailurePicture {
    /// What the failure says about one lane, drawn below the lane's last step.
    public struct Note: Hashable, Sendable {
        /// Why the note is there.
        public enum Kind: Hashable, Sendable {
            /// The lane failed: a check that did not hold, an error thrown, a stall.
            case failed
            /// The lane is blocked: what it waits for, from the failure's `waits`.
            case blocked
        }

        /// The lane the note is about.
        public let lane: Lane
        /// Why the note is there.
        public let kind: Kind
        /// What to say, without the lane's own name.
        public let text: String

        /// A note on `lane`.
        public init(lane: Lane, kind: Kind, text: String) {
            self.lane = lane
            self.kind = kind
            self.text = text
        }
    }

    /// One lane waiting for another when nothing can run.
    public struct WaitEdge: Hashable, Sendable {
        /// The lane that waits.
        public let waiter: Lane
        /// The lane it waits for: the owner of the mutex it wants, or the thread it joins.
        public let holder: Lane
        /// The object the waiter wants and the holder holds, when the trace shows the holder
        /// acquiring it: `mutex#2`.
        public let resource: SharedObject?
        /// The index in the trace of the step at which the holder acquired ``resource``.
        public let acquired: Int?
        /// Whether the edge belongs to the failure's lock-order cycle.
        public let inCycle: Bool

        /// An edge from `waiter` to `holder`.
        public init(waiter: Lane, holder: Lane, resource: SharedObject?, acquired: Int?, inCycle: Bool) {
            self.waiter = waiter
            self.holder = holder
            self.resource = resource
            self.acquired = acquired
            self.inCycle = inCycle
        }
    }

    /// The notes `reason` makes about lanes: a waiting thread's on its lane, a task that
    /// waits for good on the task's.
    static func notes(for reason: ExecutionFailure, stepLanes: Set<Lane>) -> [Note] {
        switch reason {
        case let .invariant(message, thread, file, line):
            return [Note(lane: .thread(thread), kind: .failed, text: "check failed at \(file):\(line): \(message)")]
        case let .unheldUnlock(thread, mutex, location):
            return [misuseNote(thread, location, ExecutionFailure.unheldUnlock(thread, mutex))]
        case let .joinedTwice(thread, target, location):
            return [misuseNote(thread, location, ExecutionFailure.joinedTwice(thread, target))]
        case let .threadThrew(thread, error):
            return [Note(lane: .thread(thread), kind: .failed, text: "threw: \(error)")]
        case let .forbiddenOutcome(outcome, thread):
            return [Note(lane: .thread(thread), kind: .failed, text: "returned the forbidden outcome \(outcome)")]
        case let .historyRejected(rejection, thread):
            return [Note(lane: .thread(thread), kind: .failed, text: "linearizability check failed: \(rejection)")]
        case let .stalled(thread, seconds, diagnosis):
            return [
                Note(
                    lane: .thread(thread), kind: .failed,
                    text: "ran \(seconds) s without reaching a scheduling point: \(diagnosis)")
            ]
        case .deadlock(let waits, _), .threadsStillRunning(let waits):
            return waits.map { wait in
                switch wait {
                case .thread(let wait): Note(lane: .thread(wait.thread), kind: .blocked, text: wait.waiting)
                case .task(let task): note(for: task, stepLanes: stepLanes)
                }
            }
        case .tasksDeadlocked(let tasks):
            return tasks.map { note(for: $0, stepLanes: stepLanes) }
        case .stepBoundExceeded, .taskThrew, .tooManyThreads, .nondeterminism, .escaped, .crashed, .killed:
            return []
        }
    }

    /// The note on `thread`'s lane of its misuse of a primitive, `text`, at `location`.
    private static func misuseNote(_ thread: Int, _ location: SeamLocation?, _ text: String) -> Note {
        Note(lane: .thread(thread), kind: .failed, text: "check failed at \(ExecutionFailure.place(location)): \(text)")
    }

    /// The note on the lane of a task that waits for good: where it waits.
    private static func note(for blocked: BlockedTask, stepLanes: Set<Lane>) -> Note {
        let lane = TraceLane.task(blocked.task)
        let place = blocked.waitsAt.map { "waits for good at \($0)" } ?? "waits for good"
        return Note(lane: stepLanes.first { $0 == lane } ?? lane, kind: .blocked, text: place)
    }

    /// Who waits for whom: each waiting thread's edge to the thread it waits for (the
    /// holder of the mutex it wants, or the thread it joins), with the step where the holder
    /// took the mutex when the trace shows it; and the lock-order cycle's edges.
    static func waitsFor(_ reason: ExecutionFailure, trace: [TraceStep]) -> [WaitEdge] {
        let waits: [Wait]
        let cycle: [Int]
        switch reason {
        case let .deadlock(found, foundCycle): (waits, cycle) = (found, foundCycle ?? [])
        case .threadsStillRunning(let found): (waits, cycle) = (found, [])
        default: return []
        }
        let cycleEdges = cycle.enumerated().map { position, thread in
            (waiter: Lane.thread(thread), holder: Lane.thread(cycle[(position + 1) % cycle.count]))
        }
        let held = heldAtEnd(trace)
        var edges: [WaitEdge] = []
        for wait in waits.compactMap(\.threadWait) {
            guard let holding = wait.waitsFor, holding != wait.thread else { continue }
            let waiter = Lane.thread(wait.thread), holder = Lane.thread(holding)
            let acquired = wait.object.flatMap { held[holder]?[$0]?.last }
            edges.append(
                WaitEdge(
                    waiter: waiter,
                    holder: holder,
                    resource: acquired == nil ? nil : wait.object,
                    acquired: acquired,
                    inCycle: cycleEdges.contains { $0.waiter == waiter && $0.holder == holder }
                ))
        }
        for edge in cycleEdges where !edges.contains(where: { $0.waiter == edge.waiter && $0.holder == edge.holder }) {
            edges.append(
                WaitEdge(waiter: edge.waiter, holder: edge.holder, resource: nil, acquired: nil, inCycle: true))
        }
        return edges
    }

    /// For each lane, the mutexes it holds after the last step, each with the steps that
    /// acquired it (more than one for a recursive mutex). A `tryLock` counts as acquiring:
    /// the trace does not say whether it succeeded.
    private static func heldAtEnd(_ trace: [TraceStep]) -> [Lane: [SharedObject: [Int]]] {
        var held: [Lane: [SharedObject: [Int]]] = [:]
        for (index, step) in trace.enumerated() {
            guard let target = step.target?.object else { continue }
            let lane = Lane(of: step)
            switch step.kind {
            case .lock, .tryLock, .reacquire:
                held[lane, default: [:]][target, default: []].append(index)
            case .unlock:
                _ = held[lane]?[target]?.popLast()
            default:
                break
            }
        }
        return held
    }
}
