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
}
