/// The seeded source of randomness a ``Generator`` draws from: the same scenario seed gives
/// the same values on every platform, which regenerating a scenario from its replay token
/// depends on.
///
/// One source draws one scenario, so it also remembers what the scenario's generators drew:
/// ``repeating(_:_:)`` draws values that recur within the scenario (the standard generators
/// of numbers and elements use it, so that an insert and a remove of the same element meet),
/// and ``nextDistinct(_:from:)`` counts values that never recur (``Generator/distinct(from:)``).
///
/// ```swift
/// let evenNumbers = Generator<Int>("even numbers") { random in 2 * Int.random(in: 0...50, using: &random) }
/// ```
public struct ScenarioRandom: RandomNumberGenerator, Sendable {
    private var base: SplitMix64
    /// What ``repeating(_:_:)`` drew so far, per key, in draw order.
    private var drawn: [String: [Int]] = [:]
    /// The next value ``nextDistinct(_:from:)`` gives, per key.
    private var nextDistinctValues: [String: Int] = [:]

    /// How often ``repeating(_:_:)`` draws a value the scenario already drew for its key:
    /// once in this many draws (after the first).
    public static let repeatOdds = 2

    /// A source seeded with `seed`.
    public init(seed: UInt64) {
        base = SplitMix64(seed: seed)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        base.next()
    }

    /// A value for the generator `key`: once in ``repeatOdds`` draws, when this source drew
    /// values for `key` before, one of those (uniformly); otherwise what `fresh` draws. Bugs
    /// that need the same value twice (inserted, removed, inserted again) then show in small
    /// scenarios whatever the range, instead of once in many draws from a large one.
    public mutating func repeating(_ key: String, _ fresh: (inout ScenarioRandom) -> Int) -> Int {
        if let earlier = drawn[key], !earlier.isEmpty, Int.random(in: 0..<Self.repeatOdds, using: &self) == 0 {
            return earlier[Int.random(in: earlier.indices, using: &self)]
        }
        let value = fresh(&self)
        drawn[key, default: []].append(value)
        return value
    }

    /// `start` on the first call for `key`, then one more on each: values that never recur
    /// within the scenario. Returns `nil` once the next value would overflow.
    public mutating func nextDistinct(_ key: String, from start: Int) -> Int? {
        let value = nextDistinctValues[key] ?? start
        let (following, overflow) = value.addingReportingOverflow(1)
        guard !overflow else { return nil }
        nextDistinctValues[key] = following
        return value
    }
}
