import Benchmark
import BenchmarkRegistration
import Workloads

let benchmarks: @Sendable () -> Void = {
    register(Catalog.async)
    register(Catalog.files, scalingFactor: .one)
}
