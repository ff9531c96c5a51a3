/// POS, partial-order sampling (Yuan, Yang and Gu, CAV 2018): every pending event (a
/// thread's next operation, a queued job) gets a random priority when first seen, and each
/// decision runs the enabled event with the highest priority. After an event runs, the events
/// that race with it (they touch the same object and one of them writes; every queued job
/// races with every other, for the executor's queue) get fresh priorities, and so does the
/// next event of whoever ran. Orders of racing events are then sampled close to uniformly,
/// instead of being biased by the long runs of commuting events that make random walk
/// repeat itself. Spurious wake-ups come as in random walk (see
/// ``SplitMix64/spuriousWakeOdds``) and count as events that race with their condition.
struct PartialOrderSampling: SchedulingStrategy {
    let seed: UInt64
    private var generator = SplitMix64(seed: 0)
    /// The priority of each pending event, named by the choice that runs it.
    private var priorities: [Choice: UInt64] = [:]

    init(seed: UInt64) { self.seed = seed }

    mutating func beginExecution(_ index: Int) -> Bool {
        generator = SplitMix64(seed: SplitMix64.seed(seed, execution: index))
        priorities = [:]
        return true
    }

    var restartsByBeginningAgain: Bool { true }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        let chosen = generator.occasionalSpuriousWake(among: candidates) ?? highestPriority(candidates)
        let ran = candidates[chosen]
        priorities[ran.choice] = nil
        if let access = ran.access {
            for candidate in candidates where candidate.access.map(access.conflicts) ?? false {
                priorities[candidate.choice] = nil
            }
        }
        return chosen
    }

    private mutating func highestPriority(_ candidates: Candidates) -> Int {
        var best: Int?
        var bestPriority: UInt64 = 0
        for (index, candidate) in candidates.enumerated() where !candidate.choice.isInjected {
            let priority = priorities[candidate.choice] ?? generator.next()
            priorities[candidate.choice] = priority
            if best == nil || priority > bestPriority {
                best = index
                bestPriority = priority
            }
        }
        guard let best else { preconditionFailure("a decision offered only spurious wake-ups") }
        return best
    }
}
