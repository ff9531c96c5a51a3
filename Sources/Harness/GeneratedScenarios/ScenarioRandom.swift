/// The seeded source of randomness a ``Generator`` draws from: the same scenario seed gives
/// the same values on every platform, which regenerating a scenario from its replay token
/// depends on.
///
/// ```swift
/// let evenNumbers = Generator<Int>("even numbers") { random in 2 * Int.random(in: 0...50, using: &random) }
/// ```
public struct ScenarioRandom: RandomNumberGenerator, Sendable {
    private var base: SplitMix64

    /// A source seeded with `seed`.
    public init(seed: UInt64) {
        base = SplitMix64(seed: seed)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        base.next()
    }
}
