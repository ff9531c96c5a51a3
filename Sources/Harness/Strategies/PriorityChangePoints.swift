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
    /// The strategy's state, in a box so that the strategy fits an existential's inline
    /// buffer: held as `any SchedulingStrategy` (``StrategyCell``), a larger value lives in a
    /// box of the runtime's, whose uniqueness every mutating call checked, about forty
    /// instructions a decision. Copied on write, so the strategy is still a value.
    private final class Box {
        @exclusivity(unchecked) var state: State

        init(_ state: State) {
            self.state = state
        }
    }

    private var box: Box

    init(seed: UInt64, depth: Int) {
        precondition(depth >= 1, "PCT needs a depth of at least 1, not \(depth)")
        box = Box(State(seed: seed, depth: depth))
    }

    var restartsByBeginningAgain: Bool { true }

    mutating func beginExecution(_ index: Int) -> Bool {
        makeUnique()
        return box.state.beginExecution(index)
    }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        makeUnique()
        return box.state.choose(among: candidates, running: running)
    }

    mutating func endExecution(steps: Int) {
        makeUnique()
        box.state.endExecution(steps: steps)
    }

    /// Copies the state when another strategy shares it.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.state) }
    }

    /// What the strategy knows: its seed and depth, the execution's priorities and change
    /// points, and how many decisions the executions before took.
    private struct State {
        let seed: UInt64
        let depth: Int
        private var generator = SplitMix64(seed: 0)
        private var priorities = EntityTable<UInt64>()
        /// Decision numbers (from 1) at which the candidate about to run is lowered, and the
        /// priority it drops to: `depth - 1` of them at most, so a list, searched at each
        /// decision that counts.
        private var changePoints: [(decision: Int, priority: UInt64)] = []
        /// The earliest decision among ``changePoints``' (`Int.max` when none is left): the
        /// one a decision compares its number with.
        private var nextChangePoint = Int.max
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
            noteNextChangePoint()
            let wakesSpuriously = generator.next(upperBound: UInt64(2)) == 0
            let allDecisionCount = UInt64(max(expectedAllDecisions ?? 64, 1))
            spuriousWakePoint = wakesSpuriously ? Int(generator.next(upperBound: allDecisionCount)) + 1 : nil
            return true
        }

        mutating func choose(among candidates: Candidates, running: Int?) -> Int {
            // One pass finds the highest-priority step and counts the steps: every other
            // candidate is injected.
            let (next, steps) = highestPriority(of: candidates, injected: false)
            allDecisions += 1
            if candidates[next].access != nil, steps > 1 { decisions += 1 }
            if steps < candidates.count, let point = spuriousWakePoint, allDecisions >= point {
                spuriousWakePoint = nil
                return highestPriority(of: candidates, injected: true).index
            }
            guard decisions == nextChangePoint, let point = changePoints.firstIndex(where: { $0.decision == decisions })
            else { return next }
            priorities[candidates[next].choice.entity] = changePoints.remove(at: point).priority
            noteNextChangePoint()
            return highestPriority(of: candidates, injected: false).index
        }

        /// Sets ``nextChangePoint`` from the change points left.
        private mutating func noteNextChangePoint() {
            nextChangePoint = changePoints.lazy.map(\.decision).min() ?? .max
        }

        mutating func endExecution(steps: Int) {
            expectedDecisions = max(expectedDecisions ?? 0, decisions)
            expectedAllDecisions = max(expectedAllDecisions ?? 0, allDecisions)
        }

        /// The index of the highest-priority candidate among the `injected` ones or the others
        /// (there must be one), and how many there are; entities seen for the first time get
        /// their initial priority, above every lowered one.
        private mutating func highestPriority(of candidates: Candidates, injected: Bool) -> (index: Int, included: Int)
        {
            // Every priority is at least 1 (the lowest a change point gives is `depth - (depth - 1)`),
            // so the first candidate included replaces the 0 and a later one must be higher.
            var best = (index: -1, priority: UInt64(0))
            var included = 0
            for index in candidates.indices {
                let choice = candidates[index].choice
                let priority: UInt64
                // A thread's step, the most common candidate, is looked up by its number
                // without going through its entity.
                if case .thread(let thread) = choice {
                    if injected { continue }
                    priority = priorities[thread: thread] ?? initialPriority(of: .thread(thread))
                } else {
                    guard choice.isInjected == injected else { continue }
                    priority = priorities[choice.entity] ?? initialPriority(of: choice.entity)
                }
                included += 1
                if priority > best.priority { best = (index, priority) }
            }
            precondition(best.index >= 0, "PCT was offered no candidate it may choose")
            return (best.index, included)
        }

        /// Draws `entity`'s priority, the first time a decision offers it.
        @inline(never)
        private mutating func initialPriority(of entity: Entity) -> UInt64 {
            let priority = UInt64(depth) + generator.next(upperBound: UInt64(1) << 32)
            priorities[entity] = priority
            return priority
        }
    }
}
