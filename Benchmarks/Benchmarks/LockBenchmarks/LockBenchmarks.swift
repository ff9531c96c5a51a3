import Benchmark
import BenchmarkRegistration
import Workloads

let benchmarks: @Sendable () -> Void = {
    register(Catalog.locks + Catalog.threadLocals)
}
