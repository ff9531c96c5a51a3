/// Every schedule whose cost is at most `preemptionBound`: Musuvathi and Qadeer's
/// iterative context bounding (PLDI 2007), which finds the bugs that need one or two
/// preemptions (most of them) before it spends the budget on the many schedules that need
/// more.
///
/// Preempting the running thread costs 1, and so does a spurious wake-up, which keeps the
/// space finite; a choice after the running thread blocked or exited, and the choice of
/// which queued job a lane runs, cost nothing, so every job order is enumerated. An idle
/// executor lane that would do what another idle lane does is not tried
/// (``Candidate/isSymmetricCopy``).
///
/// The order: schedules that leave the default path fewer times run first, counting a
/// preemption or a spurious wake-up and a *detour* (a free choice other than the first: the
/// running thread while it can run, else the lowest thread, or the first queued job) alike.
/// An async program has so many free choices (which job, which lane, the timer thread,
/// whoever runs once a lane waits) that its schedules of cost 0 alone outnumber any budget;
/// counting detours too reaches a bug that needs one preemption and a detour or two as soon
/// as one that needs three detours. An early timeout (``Choice/advanceClock``) costs 1 against
/// the bound but is no departure: a timeout that beats work is one departure from the schedule
/// whose work it beats (the job order that lets its waiter go first), so it runs beside the
/// schedules of one detour rather than after all of them. Each schedule runs exactly once, from the prefix that
/// ends with its last preemption or detour, queued while the schedule it leaves ran. The
/// search is exhausted once every schedule within the bound ran: thread steps, spurious
/// wake-ups and job orders.
struct BoundedExhaustive: SchedulingStrategy {
    let preemptionBound: Int

    /// A schedule's first choices, shared by every schedule that starts with them: a node
    /// holds the choices after its parent's, a run of them then one more, so that building the
    /// prefix of a schedule at a decision that branches costs a node, not one a step.
    private final class Prefix {
        /// The choices after the parent's, before ``last``; often none.
        let run: [Choice]
        let last: Choice
        let parent: Prefix?

        init(_ run: [Choice], then last: Choice, after parent: Prefix?) {
            self.run = run
            self.last = last
            self.parent = parent
        }

        var choices: [Choice] {
            var nodes: [Prefix] = []
            var count = 0
            var node: Prefix? = self
            while let current = node {
                nodes.append(current)
                count += current.run.count + 1
                node = current.parent
            }
            var choices: [Choice] = []
            choices.reserveCapacity(count)
            for node in nodes.reversed() {
                choices += node.run
                choices.append(node.last)
            }
            return choices
        }
    }

    /// A schedule still to run: its first choices, and their cost.
    private struct Queued {
        let prefix: Prefix
        let cost: Int
    }

    /// The schedules still to run, by how often they leave the default path
    /// (`queued[departures]`): a schedule queues the ones it leaves in later buckets only.
    private var queued: [[Queued]] = []
    private var departures = 0
    private var nextQueued = 0
    /// The cost of the current schedule (its prefix's: after it, it takes the defaults).
    private var cost = 0
    /// The prefix the current schedule starts with, its choices, and the choices taken after it.
    private var root: Prefix?
    private var forced: [Choice] = []
    private var taken: [Choice] = []
    /// The first `takenPrefixCount` choices of `taken` as a prefix, built as far as a queued
    /// prefix needed them.
    private var takenPrefix: Prefix?
    private var takenPrefixCount = 0
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
        // Emptied keeping its storage: one allocation an execution at most (when the
        // storage is shared with the strategy's copy before the execution), not one a doubling.
        taken.removeAll(keepingCapacity: true)
        takenPrefix = nil
        takenPrefixCount = 0
        return true
    }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        defer { position += 1 }
        guard position >= forced.count else {
            let option = forced[position]
            return candidates.firstIndex { $0.choice == option } ?? 0
        }
        // The default: the running thread while it can run, else the first free choice.
        var chosen: Int?
        var freeCount = 0
        var costlyCount = 0
        for (index, candidate) in candidates.enumerated() where !candidate.isSymmetricCopy {
            if Self.isCostly(candidate.choice, running: running) {
                costlyCount += 1
            } else {
                freeCount += 1
                if chosen == nil || candidate.choice == running.map(Choice.thread) { chosen = index }
            }
        }
        guard let chosen else { preconditionFailure("exhaustive search was offered no choice that costs nothing") }
        let canPreempt = cost < preemptionBound && costlyCount > 0
        if freeCount > 1 || canPreempt {
            let before = prefixOfTaken()
            while queued.count <= departures + 1 { queued.append([]) }
            for (index, candidate) in candidates.enumerated() where !candidate.isSymmetricCopy && index != chosen {
                let costly = Self.isCostly(candidate.choice, running: running)
                guard !costly || canPreempt else { continue }
                let bucket = candidate.choice == .advanceClock ? departures : departures + 1
                let prefix = Prefix([], then: candidate.choice, after: before)
                queued[bucket].append(Queued(prefix: prefix, cost: costly ? cost + 1 : cost))
            }
        }
        taken.append(candidates[chosen].choice)
        return chosen
    }

    /// Whether taking `choice` costs 1: preempting the running thread, or an injected event.
    private static func isCostly(_ choice: Choice, running: Int?) -> Bool {
        switch choice {
        case .spuriousWake, .advanceClock: true
        case .thread(let thread): running != nil && running != thread
        case .job: false
        }
    }

    /// The schedule so far as a prefix, building the shared nodes it needs.
    private mutating func prefixOfTaken() -> Prefix? {
        let built = takenPrefixCount == 0 ? root : takenPrefix
        guard let last = taken.last, takenPrefixCount < taken.count else { return built }
        takenPrefix = Prefix(Array(taken[takenPrefixCount..<(taken.count - 1)]), then: last, after: built)
        takenPrefixCount = taken.count
        return takenPrefix
    }

    /// Moves to the next queued schedule: in the current bucket, else in the next. False
    /// when none is left.
    private mutating func advance() -> Bool {
        while departures < queued.count {
            if nextQueued < queued[departures].count {
                let next = queued[departures][nextQueued]
                nextQueued += 1
                root = next.prefix
                cost = next.cost
                forced = next.prefix.choices
                return true
            }
            queued[departures] = []
            departures += 1
            nextQueued = 0
        }
        return false
    }
}
