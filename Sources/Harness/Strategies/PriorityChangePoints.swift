/// PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte,
/// ASPLOS 2010): each thread and each task gets a random priority when first seen, every
/// decision runs the highest-priority candidate (a thread step, or a job of the
/// highest-priority task), and at `depth - 1` random decisions the candidate about to run
/// drops to a priority below all initial ones. A bug of depth `d` among `n` threads and
/// tasks and `k` decisions is found with probability at least `1 / (n · k^(d-1))` per
/// execution.
///
/// Only decisions that can order two conflicting operations count in `k` and can be change
/// points: those with at least two candidates (not counting injected ones) where the one
/// about to run touches shared state. A decision with one candidate has nothing to change,
/// and lowering a thread just before an operation that commutes with every other (starting,
/// spawning, joining, yielding, sleeping) orders the same conflicting operations as
/// lowering it at its next decision that counts; counting either kind would only spread
/// the change points thinner (a lost update of two threads: a median of 6 schedules over
/// 1,000 seeds counting every decision, 3 counting these).
///
/// Spurious wake-ups: in half of the executions (a coin flip, so the other half keep the
/// bound above unchanged), one decision drawn uniformly from all of them (those that do
/// not count in `k` too: a waiter may be woken where only one thread can run) is a
/// spurious-wake point: the first decision at or after it that can wake a condition waiter spuriously
/// wakes the highest-priority waiter. A waiter that should have re-checked its condition
/// (`if` instead of `while`) fails when the point falls before the wake-up it waits for,
/// which is the case for a good share of the executions in which it waits at all.
struct PriorityChangePoints: SchedulingStrategy {
    let seed: UInt64
    let depth: Int
    private var generator = SplitMix64(seed: 0)
    private var priorities = EntityTable<UInt64>()
    /// Decision numbers (from 1) at which the candidate about to run is lowered, and the
    /// priority it drops to: `depth - 1` of them at most, so a list, searched at each
    /// decision that counts.
    private var changePoints: [(decision: Int, priority: UInt64)] = []
    /// The decision number, among all decisions, from which the next possible spurious
    /// wake-up is taken.
    private var spuriousWakePoint: Int?
    /// The decisions that count in `k` so far.
    private var decisions = 0
    /// Every decision so far.
    private var allDecisions = 0
    /// The most decisions that count an execution took so far: the `k` that change points
    /// are drawn from. The first execution, before any is known, draws from 64.
    private var expectedDecisions: Int?
    /// The most decisions of any kind an execution took so far, which the spurious-wake
    /// point is drawn from; 64 before any is known.
    private var expectedAllDecisions: Int?

    init(seed: UInt64, depth: Int) {
        precondition(depth >= 1, "PCT needs a depth of at least 1, not \(depth)")
        self.seed = seed
        self.depth = depth
    }

    mutating func beginExecution(_ index: Int) -> Bool {
        generator = SplitMix64(seed: SplitMix64.seed(seed, execution: index))
        // Emptied keeping their storage, so that an execution allocates none for them.
        priorities.removeAll()
        changePoints.empty()
        decisions = 0
        allDecisions = 0
        let decisionCount = UInt64(max(expectedDecisions ?? 64, 1))
        for point in 1..<depth {
            let decision = Int(generator.next(upperBound: decisionCount)) + 1
            // Two points drawn at one decision: the later draw's priority holds.
            changePoints.removeAll { $0.decision == decision }
            changePoints.append((decision, UInt64(depth - point)))
        }
        let wakesSpuriously = generator.next(upperBound: UInt64(2)) == 0
        let allDecisionCount = UInt64(max(expectedAllDecisions ?? 64, 1))
        spuriousWakePoint = wakesSpuriously ? Int(generator.next(upperBound: allDecisionCount)) + 1 : nil
        return true
    }

    mutating func choose(among candidates: [Candidate], running: Int?) -> Int {
        // One pass finds the highest-priority step and counts the steps: every other
        // candidate is injected.
        let (next, steps) = highestPriority(of: candidates) { !$0.choice.isInjected }
        allDecisions += 1
        if candidates[next].access != nil, steps > 1 { decisions += 1 }
        if steps < candidates.count, let point = spuriousWakePoint, allDecisions >= point {
            spuriousWakePoint = nil
            return highestPriority(of: candidates) { $0.choice.isInjected }.index
        }
        guard let point = changePoints.firstIndex(where: { $0.decision == decisions }) else { return next }
        priorities[candidates[next].choice.entity] = changePoints.remove(at: point).priority
        return highestPriority(of: candidates) { !$0.choice.isInjected }.index
    }

    var restartsByBeginningAgain: Bool { true }

    mutating func endExecution(steps: Int) {
        expectedDecisions = max(expectedDecisions ?? 0, decisions)
        expectedAllDecisions = max(expectedAllDecisions ?? 0, allDecisions)
    }

    /// The index of the highest-priority candidate among those that satisfy `isIncluded`
    /// (at least one must), and how many do; entities seen for the first time get their
    /// initial priority, above every lowered one.
    private mutating func highestPriority(
        of candidates: [Candidate], where isIncluded: (Candidate) -> Bool
    ) -> (index: Int, included: Int) {
        var best: (index: Int, priority: UInt64)?
        var included = 0
        for index in candidates.indices where isIncluded(candidates[index]) {
            included += 1
            let priority = priority(of: candidates[index].choice.entity)
            if best.map({ priority > $0.priority }) ?? true { best = (index, priority) }
        }
        guard let best else { preconditionFailure("PCT was offered no candidate it may choose") }
        return (best.index, included)
    }

    private mutating func priority(of entity: Entity) -> UInt64 {
        if let priority = priorities[entity] { return priority }
        let priority = UInt64(depth) + generator.next(upperBound: UInt64(1) << 32)
        priorities[entity] = priority
        return priority
    }
}
