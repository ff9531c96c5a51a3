import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    // One iteration is one schedule.
    let exploration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 2_000)
    for scenario in HarnessScenario.fixed {
        for strategy in HarnessWorkloads.strategies {
            Benchmark("\(scenario), \(strategy)", configuration: exploration) { benchmark in
                consume(
                    HarnessWorkloads.explore(scenario, strategy: strategy, schedules: benchmark.scaledIterations.count))
            }
        }
    }
    // One iteration is one round trip (two handoffs), both threads pinned to one CPU as the
    // harness pins its threads.
    let handoffs = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], scalingFactor: .kilo, maxDuration: .seconds(1))
    for mechanism in Handoffs.Mechanism.allCases {
        Benchmark("\(mechanism.rawValue), pinned", configuration: handoffs) { benchmark in
            consume(Handoffs.measure(mechanism, rounds: benchmark.scaledIterations.count, cpu: Handoffs.currentCPU))
        }
    }
}
