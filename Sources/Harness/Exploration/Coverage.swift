import Foundation

/// How much of a scenario's interleavings an exploration covered: its distinct
/// interleavings (by ``InterleavingFingerprint``), whether it was still finding new ones at
/// the end, and the size of its executions, which bounds what PCT guarantees.
public struct Coverage: Sendable, Hashable, Codable {
    /// Distinct interleavings among the schedules run.
    public let distinctInterleavings: Int
    /// New interleavings found in the last tenth of the schedules run (at least one
    /// schedule): coverage is still growing when this is not zero.
    public let newInLastTenth: Int
    /// The most threads (and executor lanes) an execution started.
    public let maxThreads: Int
    /// The most steps an execution took.
    public let maxSteps: Int

    /// Whether the last tenth of the schedules still found new interleavings: a larger
    /// budget would likely cover more.
    public var isGrowing: Bool { newInLastTenth > 0 }

    /// An upper bound on the probability that `schedules` PCT executions all miss a bug of
    /// depth `depth` (Burckhardt et al.: each finds it with probability at least
    /// 1 / (n · k^(d−1)) for n threads and k steps); `nil` without an execution to go by.
    public func pctMissBound(depth: Int, schedules: Int) -> Double? {
        guard maxThreads > 0, maxSteps > 0, schedules > 0 else { return nil }
        let perExecution = 1 / (Double(maxThreads) * pow(Double(maxSteps), Double(depth - 1)))
        return pow(1 - min(perExecution, 1), Double(schedules))
    }
}

/// Counts the interleavings of an exploration as its executions end.
struct CoverageCounter {
    private let lastTenthStart: Int
    private var seen = FingerprintSet()
    private var executions = 0
    private var newInLastTenth = 0
    private var maxThreads = 0
    private var maxSteps = 0

    /// A counter for an exploration of at most `budget` schedules.
    init(budget: Int) {
        lastTenthStart = budget - max(1, budget / 10)
    }

    mutating func note(_ fingerprint: UInt64, threads: Int, steps: Int) {
        if seen.insert(fingerprint), executions >= lastTenthStart {
            newInLastTenth += 1
        }
        executions += 1
        maxThreads = max(maxThreads, threads)
        maxSteps = max(maxSteps, steps)
    }

    var summary: Coverage {
        Coverage(
            distinctInterleavings: seen.count, newInLastTenth: newInLastTenth, maxThreads: maxThreads,
            maxSteps: maxSteps)
    }
}
