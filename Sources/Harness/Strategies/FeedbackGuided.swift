/// Feedback-guided sampling, after Fray's Fest scheduler (Li, Wang, Huang and Bell, NSDI
/// 2026): an execution whose interleaving fingerprint (``InterleavingFingerprint``) no
/// earlier one reached is kept, with the choices it made, and later executions mostly
/// mutate a kept one instead of starting blind, so the search keeps working near the
/// interleavings that were new. Random walk, PCT, POS and SURW forget every execution; this
/// one learns which schedules led somewhere.
///
/// An execution either walks at random (the first, and one in ``blindOdds`` after), or
/// takes a kept schedule, uniformly, and mutates it: at one to three decisions drawn at
/// random it picks another candidate than the kept one did; before the first of them it
/// takes the kept choice wherever that is still a candidate; after it, either it keeps
/// taking the kept choices where it can (a local change) or walks at random (a new tail),
/// evenly. Where a kept choice is not a candidate, and after the kept schedule ends, it
/// walks at random. Spurious wake-ups come as in random walk (see
/// ``SplitMix64/spuriousWakeOdds``). Every draw is seeded from the seed and the execution's
/// number, and what is kept depends only on earlier executions, so the same seed runs the
/// same schedules; a failure replays from its token as any other.
struct FeedbackGuided: SchedulingStrategy {
    let seed: UInt64
    private var generator = SplitMix64(seed: 0)
    /// The choices of the executions that reached a new fingerprint, oldest first.
    private var kept: [[Choice]] = []
    /// The fingerprints reached so far.
    private var reached: Set<UInt64> = []
    /// How this execution mutates a kept schedule; `nil` when it walks at random.
    private var mutation: Mutation?
    /// This execution's choices so far.
    private var choices: [Choice] = []

    /// A walk starts blind, instead of mutating a kept schedule, once in this many executions.
    static let blindOdds: UInt64 = 4
    /// The most schedules kept: past it, a new one replaces a kept one drawn at random.
    static let keptLimit = 256

    /// A kept schedule and where this execution departs from it.
    private struct Mutation {
        let base: [Choice]
        /// The decisions at which another candidate is picked.
        let departures: Set<Int>
        /// The last of them.
        let lastDeparture: Int
        /// Whether the kept choices are followed after the last departure too.
        let followsTail: Bool
    }

    init(seed: UInt64) { self.seed = seed }

    mutating func beginExecution(_ index: Int) -> Bool {
        generator = SplitMix64(seed: SplitMix64.seed(seed, execution: index))
        choices = []
        mutation = nil
        guard !kept.isEmpty, generator.next(upperBound: Self.blindOdds) != 0 else { return true }
        let base = kept[Int(generator.next(upperBound: UInt64(kept.count)))]
        guard !base.isEmpty else { return true }
        var departures: Set<Int> = []
        for _ in 0...generator.next(upperBound: UInt64(3)) {
            departures.insert(Int(generator.next(upperBound: UInt64(base.count))))
        }
        mutation = Mutation(
            base: base,
            departures: departures,
            lastDeparture: departures.max() ?? 0,
            followsTail: generator.next(upperBound: UInt64(2)) == 0
        )
        return true
    }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        let decision = choices.count
        let chosen = planned(decision, among: candidates) ?? randomChoice(among: candidates)
        choices.append(candidates[chosen].choice)
        return chosen
    }

    /// Notes the fingerprint the execution reached: keeps its choices when it is new.
    mutating func noteInterleaving(_ fingerprint: UInt64) {
        guard reached.insert(fingerprint).inserted else { return }
        if kept.count < Self.keptLimit {
            kept.append(choices)
        } else {
            kept[Int(generator.next(upperBound: UInt64(kept.count)))] = choices
        }
    }

    /// What the mutation picks at `decision`, or `nil` where it leaves the pick to chance.
    private mutating func planned(_ decision: Int, among candidates: Candidates) -> Int? {
        guard let mutation, decision < mutation.base.count else { return nil }
        let keptIndex = candidates.firstIndex { $0.choice == mutation.base[decision] }
        if mutation.departures.contains(decision) {
            let others = candidates.indices.filter { $0 != keptIndex && !candidates[$0].choice.isInjected }
            return others.isEmpty ? nil : generator.element(of: others)
        }
        guard decision < mutation.lastDeparture || mutation.followsTail else { return nil }
        return keptIndex
    }

    private mutating func randomChoice(among candidates: Candidates) -> Int {
        generator.uniformIndex(of: candidates)
    }
}
