import CMallocCounter
import Harness
import Workloads

/// The speed targets of issue 11, each measured the same way before and after a change:
/// schedules per second of the two fixed scenarios and of a task-and-actor scenario, with
/// scenario threads as coroutines against OS threads in the same rounds, and the cost and
/// the allocations of a scheduling decision that keeps the running thread (coroutines).
///
/// A decision's cost is solved from how much longer a schedule of two threads × 300 atomic
/// loads takes than one with none, under exhaustive search with no preemption (which
/// switches only when a thread ends), divided by how many more steps it takes; its
/// allocations the same way, from the process's allocation count (`CMallocCounter`).
struct HarnessSpeedSection {
    /// Schedules one throughput sample explores.
    var schedulesPerSample = 300
    /// Schedules one decision-cost sample explores (of each length).
    var decisionSchedulesPerSample = 40
    /// Loads per thread in the long scenario of the decision-cost samples.
    var loadsPerThread = 300
    /// How many rounds of samples; each row shows the median.
    var rounds = 5

    private struct Throughput {
        let scenario: HarnessScenario
        let strategy: Strategy
        let target: Double
        let anchor: String
    }

    private static let throughputs: [Throughput] = [
        Throughput(scenario: .lockedIncrements, strategy: .random, target: 100_000, anchor: "Shuttle 0.6 random: 61k–67k (issue 11)"),
        Throughput(scenario: .lockedIncrements, strategy: .pct(), target: 100_000, anchor: "Shuttle 0.6 PCT: 61k–67k (issue 11)"),
        Throughput(scenario: .lostUpdate, strategy: .random, target: 150_000, anchor: "Shuttle DFS: ~80k (issue 11)"),
        Throughput(scenario: .lostUpdate, strategy: .exhaustive(), target: 150_000, anchor: "Shuttle DFS: ~80k (issue 11)"),
        Throughput(scenario: .actorPingPong, strategy: .random, target: 30_000, anchor: "—"),
    ]

    /// The goal for a decision's bookkeeping.
    static let decisionCostTarget = Duration.nanoseconds(300)

    func run(into table: inout Table, log: (String) -> Void) {
        let short = HarnessScenario.loads(perThread: 0)
        let long = HarnessScenario.loads(perThread: loadsPerThread)
        let decisionStrategy = Strategy.exhaustive(preemptionBound: 0)
        var perSecond: [[Double]] = Array(repeating: [], count: Self.throughputs.count)
        var perSecondOnOSThreads: [[Double]] = Array(repeating: [], count: Self.throughputs.count)
        var ratios: [[Double]] = Array(repeating: [], count: Self.throughputs.count)
        var decisionCosts: [Double] = []
        var decisionAllocations: [Double] = []
        for round in 0..<rounds {
            log("harness speed round \(round + 1)/\(rounds)")
            for (index, measured) in Self.throughputs.enumerated() {
                let onOSThreads = HarnessWorkloads.explore(measured.scenario, strategy: measured.strategy, schedules: schedulesPerSample, threads: .os)
                let sample = HarnessWorkloads.explore(measured.scenario, strategy: measured.strategy, schedules: schedulesPerSample, threads: .coroutines)
                let rate = Double(sample.schedules) / (sample.elapsed.nanoseconds / 1e9)
                let rateOnOSThreads = Double(onOSThreads.schedules) / (onOSThreads.elapsed.nanoseconds / 1e9)
                perSecond[index].append(rate)
                perSecondOnOSThreads[index].append(rateOnOSThreads)
                ratios[index].append(rate / rateOnOSThreads)
            }
            let allocationsBefore = cmalloc_allocation_count()
            let shortSample = HarnessWorkloads.explore(short, strategy: decisionStrategy, schedules: decisionSchedulesPerSample, threads: .coroutines)
            let allocationsBetween = cmalloc_allocation_count()
            let longSample = HarnessWorkloads.explore(long, strategy: decisionStrategy, schedules: decisionSchedulesPerSample, threads: .coroutines)
            let allocationsAfter = cmalloc_allocation_count()
            let extraSteps = Double(longSample.maxSteps - shortSample.maxSteps)
            let extraTime = (longSample.elapsed / longSample.schedules - shortSample.elapsed / shortSample.schedules).nanoseconds
            decisionCosts.append(extraTime / extraSteps)
            let extraAllocations = Double(allocationsAfter - allocationsBetween) / Double(longSample.schedules)
                - Double(allocationsBetween - allocationsBefore) / Double(shortSample.schedules)
            decisionAllocations.append(extraAllocations / extraSteps)
        }

        table.startGroup("Harness speed (issue 11 targets)")
        for (index, measured) in Self.throughputs.enumerated() {
            let median = perSecond[index].median
            table.add(Table.Row(
                benchmark: "\(measured.scenario), \(measured.strategy), coroutines: schedules/s (anchor \(measured.anchor))",
                cost: median.grouped,
                baseline: "the same on OS threads",
                baselineCost: perSecondOnOSThreads[index].median.grouped,
                ratio: "\(ratios[index].median.formatted2)×",
                target: "≥ \(measured.target.grouped)/s",
                result: Table.verdict(median >= measured.target)
            ))
        }
        let cost = Duration.nanoseconds(Int64(decisionCosts.median))
        table.add(Table.Row(
            benchmark: "a decision that keeps the running thread (\(long) vs \(short), \(decisionStrategy)): cost",
            cost: cost.formattedCost,
            baseline: "—",
            baselineCost: "—",
            ratio: "—",
            target: "≤ \(Self.decisionCostTarget.formattedCost)",
            result: Table.verdict(cost <= Self.decisionCostTarget)
        ))
        let allocations = decisionAllocations.median
        table.add(Table.Row(
            benchmark: "the same decision: heap allocations",
            cost: cmalloc_is_counting() ? allocations.formatted2 : "not counted on this platform",
            baseline: "—",
            baselineCost: "—",
            ratio: "—",
            target: "0",
            result: cmalloc_is_counting() ? Table.verdict(allocations < 0.01) : "—"
        ))
    }
}
