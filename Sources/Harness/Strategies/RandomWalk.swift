/// At every decision, a uniformly random thread step or job; now and then (see
/// ``SplitMix64/spuriousWakeOdds``) a spurious wake-up instead.
struct RandomWalk: SchedulingStrategy {
    let seed: UInt64
    private var generator = SplitMix64(seed: 0)

    init(seed: UInt64) { self.seed = seed }

    mutating func beginExecution(_ index: Int) -> Bool {
        generator = SplitMix64(seed: SplitMix64.seed(seed, execution: index))
        return true
    }

    var restartsByBeginningAgain: Bool { true }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        generator.uniformIndex(of: candidates)
    }
}
