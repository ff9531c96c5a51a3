import Harness

/// The budget of every stress test in this target: one second, so that
/// `swift test --filter Stress` takes under a minute on two cores. The environment makes it
/// longer (`HARNESS_STRESS_SCALE=60` runs each a minute) or changes it outright
/// (`HARNESS_STRESS_SECONDS`, `HARNESS_STRESS_ITERATIONS`, `HARNESS_STRESS_THREADS`).
enum StressBudget {
    static let options = StressOptions(timeBudget: .seconds(1))
}
