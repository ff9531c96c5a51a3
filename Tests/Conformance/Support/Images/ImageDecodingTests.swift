import Foundation
import Testing

/// The test support's zlib and PNG decoding, on streams whose content is known.
@Suite("Test support: zlib and PNG decoding")
struct ImageDecodingTests {
    @Test("stored, fixed-code and dynamic-code deflate blocks decode, and the checksum is checked")
    func inflate() throws {
        // Made with Python's zlib.compress at levels 0 and 9.
        let stored: [UInt8] = [
            120, 1, 1, 22, 0, 233, 255, 115, 116, 111, 114, 101, 100, 44, 32, 110, 111, 116, 32, 99, 111, 109, 112, 114,
            101, 115, 115,
            101, 100, 96, 168, 8, 132
        ]
        #expect(try Inflate.zlib(stored) == Array("stored, not compressed".utf8))
        let fixed: [UInt8] = [
            120, 218, 75, 76, 74, 78, 132, 33, 133, 180, 204, 138, 212, 20, 133, 228, 252, 148, 212, 98, 0, 111, 248, 8,
            247
        ]
        #expect(try Inflate.zlib(fixed) == Array("abcabcabcabc fixed codes".utf8))
        let dynamic = try #require(
            Data(base64Encoded: "eNrtyzERAEEIxVArsXYMUOBfwH4VV6VLkUfNLb03fEk6SSXZJJPkklySvE3eQiaTyWQymUwmk/3HHrMA/g4="))
        let expected = (0..<3_000).map { (index: Int) -> UInt8 in
            index % 5 == 0 ? 32 : UInt8(index * index % 11 + 97)
        }
        #expect(try Inflate.zlib([UInt8](dynamic)) == expected)

        var corrupted = fixed
        corrupted[corrupted.count - 1] ^= 1
        #expect(throws: Inflate.Failure.checksumMismatch) { try Inflate.zlib(corrupted) }
        #expect(throws: Inflate.Failure.truncated) { try Inflate.zlib(Array(fixed.prefix(10))) }
    }

    @Test("a PNG that is not one is refused")
    func notPNG() {
        #expect(throws: PNGImage.Failure.notPNG) { try PNGImage(Array("<html>".utf8)) }
    }
}
