/// Depth-first search of every schedule whose cost is at most `preemptionBound`
/// (Musuvathi and Qadeer's context bounding, PLDI 2007: most concurrency bugs need one or
/// two preemptions). Preempting the running thread costs 1, and so does a spurious
/// wake-up, which keeps the space finite; a choice after the running thread blocked or
/// exited, and the choice of which queued job a lane runs, cost nothing, so every job order
/// is enumerated. It is exhausted once every schedule within the bound ran: thread steps,
/// spurious wake-ups and job orders.
struct BoundedExhaustive: SchedulingStrategy {
    let preemptionBound: Int

    private struct Decision {
        /// The choices in exploration order: the running thread first, when it can run.
        var options: [Choice]
        var chosen: Int
        /// The cost of the schedule before this decision.
        var costBefore: Int
        var running: Int?

        func cost(of option: Int) -> Int {
            switch options[option] {
            case .spuriousWake: 1
            case .thread(let thread): running.map { $0 == thread ? 0 : 1 } ?? 0
            case .job: 0
            }
        }
    }

    private var path: [Decision] = []
    private var position = 0
    private var started = false
    /// Whether every schedule within the bound has been explored.
    private(set) var isExhausted = false

    init(preemptionBound: Int) {
        precondition(preemptionBound >= 0, "the preemption bound cannot be negative (\(preemptionBound))")
        self.preemptionBound = preemptionBound
    }

    mutating func beginExecution(_ index: Int) -> Bool {
        if started && !advance() {
            isExhausted = true
            return false
        }
        started = true
        position = 0
        return true
    }

    mutating func choose(among candidates: [Candidate], running: Int?) -> Int {
        let option: Choice
        if position < path.count {
            option = path[position].options[path[position].chosen]
        } else {
            var ordered = candidates.map(\.choice)
            if let running, let index = ordered.firstIndex(of: .thread(running)) {
                ordered.insert(ordered.remove(at: index), at: 0)
            }
            let before = path.last.map { $0.costBefore + $0.cost(of: $0.chosen) } ?? 0
            path.append(Decision(options: ordered, chosen: 0, costBefore: before, running: running))
            option = ordered[0]
        }
        position += 1
        return candidates.firstIndex { $0.choice == option } ?? 0
    }

    mutating func endExecution(steps: Int) {
        path.removeLast(path.count - position)
    }

    /// Moves to the next unexplored schedule; false when none is left.
    private mutating func advance() -> Bool {
        while var last = path.popLast() {
            var next = last.chosen + 1
            while next < last.options.count && last.costBefore + last.cost(of: next) > preemptionBound {
                next += 1
            }
            if next < last.options.count {
                last.chosen = next
                path.append(last)
                return true
            }
        }
        return false
    }
}
