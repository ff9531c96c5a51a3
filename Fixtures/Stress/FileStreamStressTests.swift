import Foundation
import Harness
import Primitives

/// Stress tests of ``AsyncFileStream``: its I/O completes on Dispatch threads, outside the
/// seam.
public enum FileStreamStressTests {
    /// Two tasks each write their own file and read it back, concurrently; the outcome is
    /// how many of them read back what they wrote.
    public static let roundTrips = StressTest<Int>(outcomes: [
        .acceptable(2, meaning: "both read back what they wrote"),
        .forbidden(meaning: "a read did not return what was written") { $0 != 2 }
    ]) { scenario in
        let intact = SeamAtomic(0)
        for index in 0..<2 {
            scenario.task {
                let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "stress-\(UUID().uuidString)-\(index)")
                defer { try? FileManager.default.removeItem(at: url) }
                let written = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* (index + 3)) })
                try await written.asyncWrite(to: url)
                if try await Data(asyncContentsOf: url) == written { intact.add(1) }
            }
        }
        scenario.joinAll()
        return intact.load()
    }
}
