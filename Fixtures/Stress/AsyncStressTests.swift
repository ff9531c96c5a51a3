import Harness
import Primitives

/// Stress tests of the async primitives: their tasks run on a real executor, side by side.
public enum AsyncStressTests {
    /// Six tasks run through a limiter of `concurrency` 2; the outcome is the most bodies
    /// that were ever inside at once.
    public static func limiterBound(_ limiter: @escaping @Sendable () -> any AsyncLimiting) -> StressTest<Int> {
        StressTest(outcomes: [
            .acceptable(2, meaning: "the bound was reached and held"),
            .interesting(1, meaning: "no two bodies overlapped"),
            .forbidden(meaning: "more bodies at once than slots") { $0 > 2 }
        ]) { scenario in
            let limiter = limiter()
            let inside = SeamAtomic(0)
            let most = SeamAtomic(0)
            for _ in 0..<6 {
                scenario.task {
                    try await limiter.run {
                        let now = inside.add(1)
                        _ = most.update { $0 = max($0, now) }
                        await Task.yield()
                        inside.add(-1)
                    }
                }
            }
            scenario.joinAll()
            Harness.check(limiter.inFlightCount == 0 && limiter.waitingCount == 0, "slots not returned")
            return most.load()
        }
    }
}
