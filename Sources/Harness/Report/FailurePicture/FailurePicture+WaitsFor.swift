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
        public let resource: String?
        /// The index in the trace of the step at which the holder acquired ``resource``.
        public let acquired: Int?
        /// Whether the edge belongs to the failure's lock-order cycle.
        public let inCycle: Bool

        /// An edge from `waiter` to `holder`.
        public init(waiter: Lane, holder: Lane, resource: String?, acquired: Int?, inCycle: Bool) {
            self.waiter = waiter
            self.holder = holder
            self.resource = resource
            self.acquired = acquired
            self.inCycle = inCycle
        }
    }

    /// The notes `reason` makes about lanes. A `waits` line belongs to the lane whose label
    /// starts it (`T1 waits to lock …`); a line that starts with no lane's label (suspended
    /// tasks) stays in the page's list of waits only.
    static func notes(for reason: ExecutionFailure, stepLanes: Set<Lane>) -> [Note] {
        switch reason {
        case let .invariant(message, thread, file, line):
            return [Note(lane: .thread(thread), kind: .failed, text: "check failed at \(file):\(line): \(message)")]
        case let .threadThrew(thread, error):
            return [Note(lane: .thread(thread), kind: .failed, text: "threw: \(error)")]
        case let .stalled(thread, seconds, diagnosis):
            return [Note(lane: .thread(thread), kind: .failed, text: "ran \(seconds) s without reaching a scheduling point: \(diagnosis)")]
        case .deadlock(let waits, _), .threadsStillRunning(let waits):
            return waits.compactMap { line in
                guard let lane = stepLanes.first(where: { line.hasPrefix($0.label + " ") }) else { return nil }
                return Note(lane: lane, kind: .blocked, text: String(line.dropFirst(lane.label.count + 1)))
            }
        case .tasksDeadlocked(let tasks):
            return tasks.map { blocked in
                let lane = TraceLane.task(blocked.task)
                let place = blocked.waitsAt.map { "waits for good at \($0)" } ?? "waits for good"
                return Note(lane: stepLanes.first { $0 == lane } ?? lane, kind: .blocked, text: place)
            }
        case .stepBoundExceeded, .taskThrew, .tooManyThreads, .nondeterminism, .escaped, .crashed, .killed:
            return []
        }
    }

    /// Who waits for whom: the lock-order cycle's edges, and every lane that a blocked
    /// lane's note names (`… held by T2`, `… join T1`).
    ///
    /// `ExecutionFailure` says who waits for whom only as text, except for the cycle; the
    /// lanes a note names are read by matching whole words against the lanes' labels, and
    /// the resource by matching words against the objects the holder still holds at the end
    /// of the trace. A structured waits-for list in the failure would replace both matches.
    static func waitsFor(_ reason: ExecutionFailure, notes: [Note], trace: [TraceStep]) -> [WaitEdge] {
        let cycle: [Int]?
        switch reason {
        case .deadlock(_, let found): cycle = found
        case .threadsStillRunning: cycle = nil
        default: return []
        }
        var cycleEdges: [(waiter: Lane, holder: Lane)] = []
        if let cycle {
            for (position, thread) in cycle.enumerated() {
                cycleEdges.append((.thread(thread), .thread(cycle[(position + 1) % cycle.count])))
            }
        }
        let held = heldAtEnd(trace)
        let lanesByLabel = Dictionary(
            (Set(trace.map { Lane(of: $0) }).union(notes.map(\.lane))).map { ($0.label, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        var edges: [WaitEdge] = []
        for note in notes where note.kind == .blocked {
            let words = note.text.split(whereSeparator: \.isWhitespace).map { String($0.trimmingSuffix(while: { ",.;:".contains($0) })) }
            var holders: [Lane] = []
            for word in words {
                if let lane = lanesByLabel[word], lane != note.lane, !holders.contains(lane) { holders.append(lane) }
            }
            for holder in holders {
                let resource = words.first { held[holder]?[$0]?.isEmpty == false }
                edges.append(WaitEdge(
                    waiter: note.lane,
                    holder: holder,
                    resource: resource,
                    acquired: resource.flatMap { held[holder]?[$0]?.last },
                    inCycle: cycleEdges.contains { $0.waiter == note.lane && $0.holder == holder }
                ))
            }
        }
        for edge in cycleEdges where !edges.contains(where: { $0.waiter == edge.waiter && $0.holder == edge.holder }) {
            edges.append(WaitEdge(waiter: edge.waiter, holder: edge.holder, resource: nil, acquired: nil, inCycle: true))
        }
        return edges
    }

    /// For each lane, the mutexes it holds after the last step, each with the steps that
    /// acquired it (more than one for a recursive mutex). A `tryLock` counts as acquiring:
    /// the trace does not say whether it succeeded.
    private static func heldAtEnd(_ trace: [TraceStep]) -> [Lane: [String: [Int]]] {
        var held: [Lane: [String: [Int]]] = [:]
        for (index, step) in trace.enumerated() {
            guard let target = step.target else { continue }
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

private extension Substring {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
