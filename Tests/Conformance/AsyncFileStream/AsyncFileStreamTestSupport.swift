import Foundation
import Harness
import Testing

/// Files and measurements for the ``AsyncFileStream`` tests.
enum FileTestSupport {
    static let mebibyte = 1 << 20

    /// Runs `body` with a fresh temporary file URL (nothing exists there yet) and removes
    /// whatever `body` left at it.
    static func withTemporaryURL<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let url = FileManager.default.temporaryDirectory
            .appending(path: "AsyncFileStreamTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url)
    }

    /// A 4,093-byte pseudo-random block (fixed by its seed). Repeating a block whose length is
    /// prime makes every dropped, repeated or reordered byte show up in a comparison.
    static let block: Data = {
        var random = SplitMix64(seed: 0xF11E)
        return Data((0..<4_093).map { _ in UInt8.random(in: .min ... .max, using: &random) })
    }()

    /// `count` bytes of ``block`` repeated from `offset` into the repetition.
    static func patterned(count: Int, from offset: Int = 0) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { destination in
            block.withUnsafeBytes { source in
                var written = 0
                var phase = offset % source.count
                while written < count {
                    let length = min(source.count - phase, count - written)
                    destination.baseAddress!.advanced(by: written)
                        .copyMemory(from: source.baseAddress!.advanced(by: phase), byteCount: length)
                    written += length
                    phase = 0
                }
            }
        }
        return data
    }

    /// The resident set size of this process in bytes, from `/proc/self/statm`, or `nil`
    /// where there is no such file.
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Whether the resident set size can be read and means something: not under the address
    /// sanitizer, whose allocator keeps freed memory resident in quarantine.
    static var canMeasureResidentSize: Bool { residentBytes() != nil && BuildConfiguration.sanitizer != .address }
}
