import CShim
import Foundation

/// Notices a stress run whose iterations leave threads behind, before the process can no
/// longer start threads: a thread that never ends, and a joinable thread that ended but is
/// never joined, each keep their stack mapped. Counts the process's threads and, where the
/// system lists them (`/proc/self/maps`), its memory mappings, two per thread stack.
struct StressLeakWatch {
    /// How many threads a run may leave behind before it stops: far more than a scenario runs
    /// at once, far fewer than a process can have (about 32,000 on Linux, whose default
    /// `vm.max_map_count` of 65,530 allows two mappings per stack), and few enough that the
    /// test process keeps its memory.
    static let limit = 1_000

    private let baselineThreads: Int
    private let baselineMappings: Int?

    /// A watch whose baseline is the process as it is now.
    init() {
        baselineThreads = cshim_process_thread_count()
        baselineMappings = Self.mappingCount()
    }

    /// About how many threads the process has left behind since the baseline, once that is
    /// more than ``limit``; `nil` before.
    func leakedThreads() -> Int? {
        var leaked = 0
        let threads = cshim_process_thread_count()
        if baselineThreads >= 0, threads >= 0 { leaked = threads - baselineThreads }
        if let baselineMappings, let mappings = Self.mappingCount() {
            leaked = max(leaked, (mappings - baselineMappings) / 2)
        }
        return leaked > Self.limit ? leaked : nil
    }

    /// The number of the process's memory mappings, or `nil` where the system does not list
    /// them.
    private static func mappingCount() -> Int? {
        guard let file = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
        defer { try? file.close() }
        var lines = 0
        while let chunk = try? file.read(upToCount: 1 << 16), !chunk.isEmpty {
            lines += chunk.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }
        return lines
    }
}
