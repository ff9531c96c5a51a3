import Harness
import Testing

@Suite("Generated scenarios: generators draw from a seed and shrink toward simple values")
struct GeneratorTests {
    @Test("the same seed draws the same values")
    func seeded() {
        let generator = Generator.zip(.int(in: -50...50), .optional(.element(of: ["a", "b", "c"])))
        func draw(_ seed: UInt64) -> [String] {
            var random = ScenarioRandom(seed: seed)
            return (0..<20).map { _ in "\(generator.value(using: &random)!)" }
        }
        #expect(draw(7) == draw(7))
        #expect(draw(7) != draw(8))
    }

    @Test("integers shrink toward the number in range closest to zero: it, halfway, one step")
    func integers() {
        #expect(Generator.int(in: -10...10).simpler(than: 8) == [0, 4, 7])
        #expect(Generator.int(in: -10...10).simpler(than: -3) == [0, -2])
        #expect(Generator.int(in: -10...10).simpler(than: 0) == [])
        #expect(Generator.int(in: 5...9).simpler(than: 9) == [5, 7, 8])
        #expect(Generator.int(in: -9 ... -5).simpler(than: -9) == [-5, -7, -8])
    }

    @Test("elements shrink toward the first, optionals to nil first, pairs component by component, booleans to false")
    func structured() {
        #expect(Generator.element(of: ["a", "b", "c", "d"]).simpler(than: "d") == ["a", "b", "c"])
        #expect(Generator.optional(.int(in: 0...9)).simpler(than: 4) == [nil, 0, 2, 3])
        #expect(Generator.optional(.int(in: 0...9)).simpler(than: nil) == [])
        let pairs = Generator.zip(Generator.int(in: 0...9), .bool).simpler(than: (2, true))
        #expect(pairs.map { "\($0)" } == ["(0, true)", "(1, true)", "(2, false)"])
        #expect(Generator<Bool>.bool.simpler(than: false) == [])
    }

    @Test("a generator that cannot produce a value draws nil: an empty list, a filter that rejects everything")
    func noValue() {
        var random = ScenarioRandom(seed: 1)
        #expect(Generator<Int>.element(of: []).value(using: &random) == nil)
        #expect(Generator.int(in: 0...9).filter { $0 > 100 }.value(using: &random) == nil)
        #expect(Generator.int(in: 0...9).filter { $0 % 2 == 0 }.value(using: &random).map { $0 % 2 } == 0)
        #expect(Generator.int(in: 0...9).filter { $0 % 2 == 1 }.simpler(than: 9) == [5])
    }

    @Test("numbers and elements recur within a scenario: a draw reuses an earlier one once in two")
    func repeats() {
        for generator in [Generator.int(in: 1...1_000_000), .element(of: Array(1...1_000_000))] {
            var random = ScenarioRandom(seed: 5)
            let values = (0..<20).map { _ in generator.value(using: &random)! }
            #expect(Set(values).count <= 15, "\(generator): \(values)")
        }
    }

    @Test("distinct values never recur within a scenario, whichever operation draws, and shrink to nothing")
    func distinct() {
        var random = ScenarioRandom(seed: 5)
        let generator = Generator.distinct(from: 10)
        let values = (0..<50).map { _ in generator.value(using: &random)! }
        #expect(values == Array(10..<60))
        #expect(generator.simpler(than: 30) == [])
        var fresh = ScenarioRandom(seed: 5)
        #expect(generator.value(using: &fresh) == 10)
        var nearTheEnd = ScenarioRandom(seed: 1)
        #expect(Generator.distinct(from: Int.max).value(using: &nearTheEnd) == nil)
    }
}
