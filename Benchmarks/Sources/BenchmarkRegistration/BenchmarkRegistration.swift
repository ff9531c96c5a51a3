import Benchmark
import Workloads

/// Registers both sides of each comparison with package-benchmark, each side once (a
/// baseline shared by several comparisons is measured once). One package-benchmark
/// iteration is one operation; `scalingFactor` sets how many operations a sample runs.
public func register(_ comparisons: [Comparison], scalingFactor: BenchmarkScalingFactor = .kilo) {
    var registered: Set<String> = []
    for workload in comparisons.flatMap({ [$0.subject, $0.baseline] }) where registered.insert(workload.name).inserted {
        Benchmark(
            workload.name,
            configuration: .init(
                metrics: [.wallClock, .throughput, .mallocCountTotal],
                scalingFactor: scalingFactor,
                maxDuration: .seconds(1)
            )
        ) { benchmark in
            consume(await workload.measure(benchmark.scaledIterations.count))
        }
    }
}
