/// SURW, selectively uniform random walk (Zhao, Wolff, Mathur and Roychoudhury, ASPLOS
/// 2025). Random walk picks the next thread uniformly, which samples interleavings far from
/// uniformly: a thread with many steps left is as likely to run as one with a single step.
/// SURW picks a thread with probability proportional to the number of interesting events it
/// has left, which samples the interleavings of those events uniformly (exactly so when the
/// counts are exact and no thread blocks).
///
/// Interesting events are operations on shared state (mutexes, conditions, atomic cells,
/// cancellation, the job queue). At each decision a uniformly drawn candidate runs at once
/// when its operation touches no shared state (it commutes with every other); otherwise a
/// draw weighted by what each interesting candidate has left decides. What an entity has
/// left is estimated from earlier executions: the mean count of each thread (by number),
/// task and task-less job (by the order the execution first saw them), minus what it did
/// so far, and at least 1. A thread that has not yet created the threads it created last
/// time also carries their estimates (the events of its subtree), as the paper does for
/// threads created on the way. Queued jobs are weighted by their task's estimated jobs
/// left. The first execution, with nothing known, weighs all alike. Spurious wake-ups come
/// as in random walk (see ``SplitMix64/spuriousWakeOdds``).
struct SelectivelyUniformRandomWalk: SchedulingStrategy {
    let seed: UInt64
    private var generator = SplitMix64(seed: 0)
    /// Interesting events (threads) or jobs (tasks) per entity, summed over finished executions.
    private var totals: [Entity: Int] = [:]
    private var finishedExecutions = 0
    /// The threads each thread created, in the last finished execution.
    private var knownChildren: [Int: [Int]] = [:]
    /// This execution's counts, parents and created threads.
    private var counts: [Entity: Int] = [:]
    private var children: [Int: [Int]] = [:]
    private var created: Set<Int> = []

    init(seed: UInt64) { self.seed = seed }

    mutating func beginExecution(_ index: Int) -> Bool {
        generator = SplitMix64(seed: SplitMix64.seed(seed, execution: index))
        counts = [:]
        children = [:]
        created = []
        return true
    }

    var restartsByBeginningAgain: Bool { true }

    mutating func threadCreated(_ thread: Int, by parent: Int?) {
        created.insert(thread)
        if let parent { children[parent, default: []].append(thread) }
    }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        if let spurious = generator.occasionalSpuriousWake(among: candidates) { return spurious }
        let regular = candidates.indices.filter { !candidates[$0].choice.isInjected }
        let picked = generator.element(of: regular)
        guard candidates[picked].access != nil else { return picked }
        let interesting = regular.filter { candidates[$0].access != nil }
        let weights = interesting.map { remaining(candidates[$0].choice.entity) }
        var draw = generator.next(upperBound: weights.reduce(0, +))
        for (index, weight) in zip(interesting, weights) {
            if draw < weight {
                counts[candidates[index].choice.entity, default: 0] += 1
                return index
            }
            draw -= weight
        }
        preconditionFailure("a weighted draw fell outside its weights")
    }

    mutating func endExecution(steps: Int) {
        for (entity, count) in counts { totals[entity, default: 0] += count }
        finishedExecutions += 1
        knownChildren = children
    }

    /// The estimated interesting events (or jobs) `entity` has left, at least 1.
    private func remaining(_ entity: Entity) -> UInt64 {
        guard finishedExecutions > 0 else { return 1 }
        var estimate =
            Double(totals[entity, default: 0]) / Double(finishedExecutions) - Double(counts[entity, default: 0])
        if case .thread(let thread) = entity {
            estimate += uncreatedSubtree(of: thread)
        }
        return UInt64(max(estimate.rounded(), 1))
    }

    /// The estimated events of the threads `thread` created last time and has not created yet.
    private func uncreatedSubtree(of thread: Int) -> Double {
        var sum = 0.0
        for child in knownChildren[thread, default: []] where !created.contains(child) {
            sum += Double(totals[.thread(child), default: 0]) / Double(finishedExecutions) + uncreatedSubtree(of: child)
        }
        return sum
    }
}
