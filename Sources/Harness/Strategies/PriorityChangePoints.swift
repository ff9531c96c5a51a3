/// PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte,
/// ASPLOS 2010): each thread gets a random priority, the highest-priority runnable thread
/// runs, and at `depth - 1` random steps the running thread drops to a low priority. A bug
/// of depth `d` among `n` threads and `k` steps is found with probability at least
/// `1 / (n · k^(d-1))` per execution.
struct PriorityChangePoints: SchedulingStrategy {
    let seed: UInt64
    let depth: Int
    private var generator = SplitMix64(seed: 0)
    private var priorities: [Int: UInt64] = [:]
    private var changePoints: [Int: UInt64] = [:]
    /// The longest execution seen so far: the `k` that change points are drawn from. The
    /// first execution, before any is known, draws from 64.
    private var expectedSteps: Int?

    init(seed: UInt64, depth: Int) {
        precondition(depth >= 1, "PCT needs a depth of at least 1, not \(depth)")
        self.seed = seed
        self.depth = depth
    }

    mutating func beginExecution(_ index: Int) -> Bool {
        generator = SplitMix64(seed: SplitMix64.seed(seed, execution: index))
        priorities = [:]
        changePoints = [:]
        for point in 1..<depth {
            let step = Int(generator.next(upperBound: UInt64(expectedSteps ?? 64))) + 1
            changePoints[step] = UInt64(depth - point)
        }
        return true
    }

    mutating func threadCreated(_ thread: Int) {
        priorities[thread] = UInt64(depth) + generator.next(upperBound: UInt64(1) << 32)
    }

    mutating func choose(among candidates: [Candidate], running: Int?, step: Int) -> Int {
        if let lowered = changePoints[step], let running {
            priorities[running] = lowered
        }
        let regular = candidates.indices.filter { !candidates[$0].isSpuriousWake }
        return regular.max { priorities[candidates[$0].thread, default: 0] < priorities[candidates[$1].thread, default: 0] }!
    }

    mutating func endExecution(steps: Int) {
        expectedSteps = max(expectedSteps ?? 0, steps)
    }
}
