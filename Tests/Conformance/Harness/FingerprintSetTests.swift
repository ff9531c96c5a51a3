@testable import Harness
import Testing

@Suite("Harness: the set of interleavings an exploration saw")
struct FingerprintSetTests {
    @Test("the fingerprint set counts each fingerprint once, 0 and colliding ones too, as it grows")
    func countsEachOnce() {
        var set = FingerprintSet()
        var reference = Set<UInt64>()
        var generator = SplitMix64(seed: 5)
        // Values that share their low bits (they probe the same slots), zero, and random ones,
        // each offered twice.
        let colliding = (0..<40).map { UInt64($0) << 32 }
        let random = (0..<500).map { _ in generator.next() }
        for fingerprint in colliding + random + [0] + random.prefix(50) + colliding {
            #expect(set.insert(fingerprint) == reference.insert(fingerprint).inserted)
        }
        #expect(set.count == reference.count)
        #expect(set.count == 40 + 500)
    }
}
