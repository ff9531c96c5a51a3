import Benchmark
import BenchmarkRegistration
import Workloads

let benchmarks: @Sendable () -> Void = {
    register(Catalog.seam + Catalog.dropIns)
}
