/// Depth-first search of every schedule with at most `preemptionBound` preemptions
/// (Musuvathi and Qadeer's iterative context bounding, PLDI 2007): most concurrency bugs
/// need one or two. Spurious wake-ups are not explored. Reports when it has covered every
/// schedule within the bound.
struct BoundedExhaustive: SchedulingStrategy {
    let preemptionBound: Int

    private struct Decision {
        /// Candidates in exploration order: the running thread first, when it can run.
        var options: [Candidate]
        var chosen: Int
        /// Preemptions taken before this decision.
        var preemptionsBefore: Int
        var running: Int?

        func cost(of option: Int) -> Int {
            guard let running else { return 0 }
            return options[option].thread == running ? 0 : 1
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

    mutating func choose(among candidates: [Candidate], running: Int?, step: Int) -> Int {
        let regular = candidates.filter { !$0.isSpuriousWake }
        let option: Candidate
        if position < path.count {
            option = path[position].options[path[position].chosen]
        } else {
            var ordered = regular
            let preempting = running.map { thread in regular.contains { $0.thread == thread } } ?? false
            if preempting, let index = ordered.firstIndex(where: { $0.thread == running }) {
                ordered.insert(ordered.remove(at: index), at: 0)
            }
            let before = path.last.map { $0.preemptionsBefore + $0.cost(of: $0.chosen) } ?? 0
            path.append(Decision(options: ordered, chosen: 0, preemptionsBefore: before, running: preempting ? running : nil))
            option = ordered[0]
        }
        position += 1
        return candidates.firstIndex(of: option) ?? 0
    }

    mutating func endExecution(steps: Int) {
        path.removeLast(path.count - position)
    }

    /// Moves to the next unexplored schedule; false when none is left.
    private mutating func advance() -> Bool {
        while var last = path.popLast() {
            var next = last.chosen + 1
            while next < last.options.count && last.preemptionsBefore + last.cost(of: next) > preemptionBound {
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
