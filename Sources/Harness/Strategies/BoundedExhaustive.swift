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
        /// Where the choices that cost nothing here are in ``options``, in exploration
        /// order: the running thread alone when it can run; otherwise every thread step or job.
        var optionsStart: Int
        var optionsCount: Int
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
    /// The free choices of every decision on ``path``, one after another: one array for
    /// the whole path, so that a decision allocates nothing.
    private var options: [Choice] = []
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
            option = chosenOption(at: depth)
        } else {
            let start = options.count
            if let running, candidates.contains(where: { $0.choice == .thread(running) }) {
                options.append(.thread(running))
            }
            var hasCostly = false
            for candidate in candidates {
                if Self.isCostly(candidate.choice, running: running) {
                    hasCostly = true
                } else if candidate.choice != running.map(Choice.thread) {
                    options.append(candidate.choice)
                }
            }
            if cost < preemptionBound && hasCostly {
                let before = prefix(before: depth)
                for candidate in candidates where Self.isCostly(candidate.choice, running: running) {
                    queuedForNextCost.append(Prefix(candidate.choice, after: before))
                }
            }
            path.append(Decision(optionsStart: start, optionsCount: options.count - start, chosen: 0))
            option = options[start]
        }
        return candidates.firstIndex { $0.choice == option } ?? 0
    }

    mutating func endExecution(steps: Int) {
        path.removeLast(path.count - min(max(position - forced.count, 0), path.count))
        options.removeLast(options.count - (path.last.map { $0.optionsStart + $0.optionsCount } ?? 0))
    }

    /// Whether taking `choice` costs a preemption: a spurious wake-up, a clock advance, or
    /// another thread while `running` can go on.
    private static func isCostly(_ choice: Choice, running: Int?) -> Bool {
        switch choice {
        case .spuriousWake, .advanceClock: true
        case .thread(let thread): running != nil && running != thread
        case .job: false
        }
    }

    /// The option chosen at the free choice at `depth`.
    private func chosenOption(at depth: Int) -> Choice {
        options[path[depth].optionsStart + path[depth].chosen]
    }

    /// The schedule before the free choice at `depth`, building the shared nodes it needs.
    private mutating func prefix(before depth: Int) -> Prefix? {
        var built = depth
        while built > 0 && path[built - 1].prefix == nil { built -= 1 }
        var prefix = built > 0 ? path[built - 1].prefix : root
        for index in built..<depth {
            prefix = Prefix(chosenOption(at: index), after: prefix)
            path[index].prefix = prefix
        }
        return prefix
    }

    /// Moves to the next unexplored schedule: the next free choice below the current
    /// prefix, else the next queued prefix, else the queue of the next cost. False when
    /// none is left.
    private mutating func advance() -> Bool {
        while var last = path.popLast() {
            if last.chosen + 1 < last.optionsCount {
                last.chosen += 1
                last.prefix = nil
                path.append(last)
                return true
            }
            options.removeLast(options.count - last.optionsStart)
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
