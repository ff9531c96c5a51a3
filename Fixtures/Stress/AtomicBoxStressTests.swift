import Harness
import Primitives

/// Stress tests of atomic boxes.
public enum AtomicBoxStressTests {
    /// Two threads each add 1 fifty times through `update`; the outcome is the final value.
    public static func racingUpdates<Box: IntegerUpdating>(_ box: @escaping @Sendable () -> Box) -> StressTest<Int> {
        StressTest(outcomes: [
            .acceptable(100, meaning: "no update lost"),
            .forbidden(meaning: "updates lost") { $0 < 100 }
        ]) { scenario in
            let box = box()
            for _ in 0..<2 {
                scenario.spawn {
                    for _ in 0..<50 { box.update { $0 += 1 } }
                }
            }
            scenario.joinAll()
            return box.load()
        }
    }

    /// Who won a race of two compare-and-exchanges from 0, and what the box holds after.
    public struct ExchangeRace: Hashable, Sendable, CustomStringConvertible {
        /// Whether the first thread's exchange (0 to 1) took place.
        public let first: Bool
        /// Whether the second thread's exchange (0 to 2) took place.
        public let second: Bool
        /// The value after both.
        public let final: Int

        public var description: String {
            "first \(first ? "won" : "lost"), second \(second ? "won" : "lost"), box holds \(final)"
        }
    }

    /// Two threads race to replace 0, one with 1 and one with 2: exactly one wins, and the
    /// box holds the winner's value.
    public static let compareExchangeRace = StressTest<ExchangeRace>(outcomes: [
        .acceptable(ExchangeRace(first: true, second: false, final: 1), meaning: "the first thread won"),
        .acceptable(ExchangeRace(first: false, second: true, final: 2), meaning: "the second thread won")
    ]) { scenario in
        let box = AtomicBox(0)
        let first = SeamAtomic(false)
        let second = SeamAtomic(false)
        scenario.spawn { first.store(box.compareExchange(expected: 0, desired: 1).exchanged) }
        scenario.spawn { second.store(box.compareExchange(expected: 0, desired: 2).exchanged) }
        scenario.joinAll()
        return ExchangeRace(first: first.load(), second: second.load(), final: box.load())
    }
}
