import Benchmark
import BenchmarkRegistration
import Workloads

let benchmarks: @Sendable () -> Void = {
    // One iteration is one whole check of a history.
    register(Catalog.linearizability, scalingFactor: .one)
}
