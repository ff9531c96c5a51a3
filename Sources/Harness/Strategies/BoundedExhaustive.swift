/// Every schedule whose cost is at most `preemptionBound`, cheapest first: Musuvathi and
/// Qadeer's iterative context bounding (PLDI 2007), which finds the bugs that need one or
/// two preemptions (most of them) before it spends the budget on the many schedules that
/// need more.
///
/// Preempting the running thread costs 1, and so does a spurious wake-up, which keeps the
/// space finite; a choice after the running thread blocked or exited, and the choice of
/// which queued job a lane runs, cost nothing, so every job order is enumerated. The search
/// runs every schedule of cost 0 (depth first over the free choices), then every one of
/// cost 1, and so on, each exactly once: a schedule of cost `c` is explored from the prefix
/// that ends with its last costly choice, queued while the schedules of cost `c - 1` ran.
/// It is exhausted once every schedule within the bound ran: thread steps, spurious
/// wake-ups and job orders.
struct BoundedExhaustive: SchedulingStrategy {
    let preemptionBound: Int

    /// A schedule's first choices, shared by every schedule that starts with them.
    private final class Prefix {
        let choice: Choice
        let parent: Prefix?

        init(_ choice: Choice, after parent: Prefix?) {
            self.choice = choice
            self.parent = parent
        }

        var choices: [Choice] {
            var choices: [Choice] = []
            var node: Prefix? = self
            while let current = node {
                choices.append(current.choice)
                node = current.parent
            }
            return choices.reversed()
        }
    }

    private struct Decision {
        /// The choices that cost nothing here, in exploration order: the running thread
        /// alone when it can run; otherwise every thread step or job.
        var options: [Choice]
        var chosen: Int
        /// The schedule up to and including the chosen option, once a queued prefix needs it.
        var prefix: Prefix?
    }

    /// The cost of the schedules being explored.
    private var cost = 0
    /// Prefixes that end with a costly choice: those of the current cost to explore from
    /// (`queued[nextQueued...]`), and those of the next cost.
    private var queued: [Prefix] = []
    private var nextQueued = 0
    private var queuedForNextCost: [Prefix] = []
    /// The prefix the current schedules start with, and their free choices after it.
    private var root: Prefix?
    private var forced: [Choice] = []
    private var path: [Decision] = []
    private var position = 0
    private var started = false

    init(preemptionBound: Int) {
        precondition(preemptionBound >= 0, "the preemption bound cannot be negative (\(preemptionBound))")
        self.preemptionBound = preemptionBound
    }

    mutating func beginExecution(_ index: Int) -> Bool {
        if started && !advance() { return false }
        started = true
        position = 0
        return true
    }

    mutating func choose(among candidates: [Candidate], running: Int?) -> Int {
        defer { position += 1 }
        let depth = position - forced.count
        let option: Choice
        if depth < 0 {
            option = forced[position]
        } else if depth < path.count {
            option = path[depth].options[path[depth].chosen]
        } else {
            var free: [Choice] = []
            var costly: [Choice] = []
            for candidate in candidates {
                switch candidate.choice {
                case .spuriousWake, .advanceClock:
                    costly.append(candidate.choice)
                case .thread(let thread) where running != nil && running != thread:
                    costly.append(candidate.choice)
                case .thread(let thread) where running == thread:
                    free.insert(candidate.choice, at: 0)
                case .thread, .job:
                    free.append(candidate.choice)
                }
            }
            if cost < preemptionBound && !costly.isEmpty {
                let before = prefix(before: depth)
                queuedForNextCost += costly.map { Prefix($0, after: before) }
            }
            path.append(Decision(options: free, chosen: 0))
            option = free[0]
        }
        return candidates.firstIndex { $0.choice == option } ?? 0
    }

    mutating func endExecution(steps: Int) {
        path.removeLast(path.count - min(max(position - forced.count, 0), path.count))
    }

    /// The schedule before the free choice at `depth`, building the shared nodes it needs.
    private mutating func prefix(before depth: Int) -> Prefix? {
        var built = depth
        while built > 0 && path[built - 1].prefix == nil { built -= 1 }
        var prefix = built > 0 ? path[built - 1].prefix : root
        for index in built..<depth {
            prefix = Prefix(path[index].options[path[index].chosen], after: prefix)
            path[index].prefix = prefix
        }
        return prefix
    }

    /// Moves to the next unexplored schedule: the next free choice below the current
    /// prefix, else the next queued prefix, else the queue of the next cost. False when
    /// none is left.
    private mutating func advance() -> Bool {
        while var last = path.popLast() {
            if last.chosen + 1 < last.options.count {
                last.chosen += 1
                last.prefix = nil
                path.append(last)
                return true
            }
        }
        while nextQueued == queued.count {
            guard cost < preemptionBound, !queuedForNextCost.isEmpty else { return false }
            cost += 1
            queued = queuedForNextCost
            queuedForNextCost = []
            nextQueued = 0
        }
        root = queued[nextQueued]
        nextQueued += 1
        forced = root?.choices ?? []
        return true
    }
}
