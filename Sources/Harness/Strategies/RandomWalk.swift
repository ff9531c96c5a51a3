/// At every point, a uniformly random candidate; spurious wake-ups are offered rarely.
struct RandomWalk: SchedulingStrategy {
    let seed: UInt64
    private var generator = SplitMix64(seed: 0)

    init(seed: UInt64) { self.seed = seed }

    mutating func beginExecution(_ index: Int) -> Bool {
        generator = SplitMix64(seed: SplitMix64.seed(seed, execution: index))
        return true
    }

    mutating func choose(among candidates: [Candidate], running: Int?, step: Int) -> Int {
        let regular = candidates.indices.filter { !candidates[$0].isSpuriousWake }
        if regular.count < candidates.count, generator.next(upperBound: UInt64(32)) == 0 {
            let spurious = candidates.indices.filter { candidates[$0].isSpuriousWake }
            return spurious[Int(generator.next(upperBound: UInt64(spurious.count)))]
        }
        return regular[Int(generator.next(upperBound: UInt64(regular.count)))]
    }
}
