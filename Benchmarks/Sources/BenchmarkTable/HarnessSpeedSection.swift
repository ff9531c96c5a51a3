import CMallocCounter
import Harness
import Workloads

/// The speed targets of issues 11 and 22, each measured the same way before and after a
/// change: schedules per second of the two fixed scenarios and of a task-and-actor scenario,
/// with scenario threads as coroutines against OS threads in the same rounds, heap
/// allocations per schedule and per step on the default backend, and the cost and the
/// allocations of a scheduling decision that keeps the running thread, on each backend.
///
/// A decision's cost is solved from how much longer a schedule of two threads × 300 atomic
/// loads takes than one with none, under exhaustive search with no preemption (which
/// switches only when a thread ends), divided by how many more steps it takes; its
/// allocations the same way, from the process's allocation count (`CMallocCounter`).
/// Allocations per step divide a scenario's allocations per schedule by its mean steps per
/// schedule (``HarnessWorkloads/stepsPerSchedule(_:strategy:executions:)``, counted once).
///
/// With a ``PeerProcess`` (`--peer`, Shuttle's build of the same scenarios), each round
/// samples the peer right after ours on every scenario it has, and the section adds the
/// ratios of ours (both backends) to the peer, and heap allocations per schedule of each:
/// medians of the per-round ratios, the only numbers that mean much on a noisy machine.
struct HarnessSpeedSection {
    /// Schedules one throughput sample on coroutines explores, and one of the peer: the same
    /// count, so that each pays an exploration's own cost (starting its strategy, its runner,
    /// its first execution's storage) as often. With 300 of ours against 3,000 of the peer's,
    /// ours paid it ten times as often: some 2 % of a sample of (a), 5 % of one of (b).
    var schedulesPerSample = 3_000
    /// Schedules one throughput sample on OS threads explores: fewer, as they run some ten
    /// times slower.
    var schedulesPerOSThreadsSample = 300
    /// Schedules one decision-cost sample explores (of each length).
    var decisionSchedulesPerSample = 40
    /// Loads per thread in the long scenario of the decision-cost samples.
    var loadsPerThread = 300
    /// How many rounds of samples; each row shows the median.
    var rounds = 5
    /// The other harness sampled side by side, if any.
    var peer: PeerProcess?

    private struct Throughput {
        let scenario: HarnessScenario
        let strategy: Strategy
        let target: Double
        let anchor: String
        /// The scenario and strategy as the peer names them, when it has them.
        var peer: (scenario: String, strategy: String)?
    }

    /// One scenario's samples, a value per round each.
    private struct Samples {
        var coroutines: [Double] = []
        var osThreads: [Double] = []
        var coroutinesOverOSThreads: [Double] = []
        var allocationsPerSchedule: [Double] = []
        var peer: [Double] = []
        var peerAllocationsPerSchedule: [Double] = []
        var osThreadsOverPeer: [Double] = []
        var coroutinesOverPeer: [Double] = []
    }

    private static let throughputs: [Throughput] = [
        Throughput(
            scenario: .lockedIncrements, strategy: .random, target: 100_000, anchor: "Shuttle 0.6.1: --peer",
            peer: ("locked-increments", "random")),
        Throughput(
            scenario: .lockedIncrements, strategy: .pct(), target: 100_000, anchor: "Shuttle 0.6.1: --peer",
            peer: ("locked-increments", "pct")),
        Throughput(
            scenario: .lostUpdate, strategy: .random, target: 150_000, anchor: "Shuttle 0.6.1: --peer",
            peer: ("lost-update", "random")),
        Throughput(
            scenario: .lostUpdate, strategy: .exhaustive(), target: 150_000, anchor: "Shuttle DFS: ~80k (issue 11)"),
        Throughput(
            scenario: .actorPingPong, strategy: .random, target: 30_000, anchor: "Shuttle 0.6.1: --peer",
            peer: ("actor", "random"))
    ]

    /// The goal for a decision's bookkeeping (issue 22; issue 11 asked for 300 ns).
    static let decisionCostTarget = Duration.nanoseconds(100)

    /// The cost and the heap allocations of a decision that keeps the running thread, a
    /// value per round each, on one backend.
    private struct DecisionSamples {
        var costs: [Double] = []
        var allocations: [Double] = []
    }

    /// The scenarios a decision's cost is solved from. The short one loads once a thread, so
    /// that both touch the same object and differ only in decisions: with no load at all,
    /// what an execution keeps of the first object it sees (its name, its place in the
    /// fingerprint) counted as three allocations spread over the long scenario's loads.
    private var decisionScenarios: (short: HarnessScenario, long: HarnessScenario) {
        (.loads(perThread: 1), .loads(perThread: loadsPerThread))
    }

    /// Samples a decision that keeps the running thread once, its threads run as `threads`:
    /// its cost in nanoseconds and its heap allocations.
    private func sampleDecision(threads: ScenarioThreads) -> (cost: Double, allocations: Double) {
        let (short, long) = decisionScenarios
        let allocationsBefore = cmalloc_allocation_count()
        let shortSample = HarnessWorkloads.explore(
            short, strategy: Self.decisionStrategy, schedules: decisionSchedulesPerSample, threads: threads)
        let allocationsBetween = cmalloc_allocation_count()
        let longSample = HarnessWorkloads.explore(
            long, strategy: Self.decisionStrategy, schedules: decisionSchedulesPerSample, threads: threads)
        let allocationsAfter = cmalloc_allocation_count()
        let extraSteps = Double(longSample.maxSteps - shortSample.maxSteps)
        let extraTime = (longSample.elapsed / longSample.schedules - shortSample.elapsed / shortSample.schedules)
            .nanoseconds
        let extraAllocations =
            Double(allocationsAfter - allocationsBetween) / Double(longSample.schedules)
            - Double(allocationsBetween - allocationsBefore) / Double(shortSample.schedules)
        return (extraTime / extraSteps, extraAllocations / extraSteps)
    }

    /// The strategy of the decision samples: PCT with no change point keeps the running thread
    /// at every decision until it ends (the highest-priority thread takes all its loads, then
    /// the other), and, unlike exhaustive search with no preemption, is never done after one
    /// schedule, so a sample is one exploration of many schedules, as a decision costs in a
    /// campaign. Under `exhaustive:0` every schedule was an exploration of its own, whose
    /// strategy and trace started with empty arrays and grew them with the steps: 0.01 to
    /// 0.02 allocations a decision that were the start of an exploration.
    private static let decisionStrategy = Strategy.pct(depth: 1)

    func run(into table: inout Table, log: (String) -> Void) throws(PeerProcess.Failure) {
        var samples = Array(repeating: Samples(), count: Self.throughputs.count)
        let backends: [ScenarioThreads] = [.os, .coroutines]
        var decisions = Array(repeating: DecisionSamples(), count: backends.count)
        log("harness speed: steps per schedule")
        let stepsPerSchedule = Self.throughputs.map { measured in
            HarnessWorkloads.stepsPerSchedule(measured.scenario, strategy: measured.strategy, executions: 10).decisions
        }
        for round in 0..<rounds {
            log("harness speed round \(round + 1)/\(rounds)")
            for (index, measured) in Self.throughputs.enumerated() {
                var allocationsBefore = cmalloc_allocation_count()
                let onOSThreads = HarnessWorkloads.explore(
                    measured.scenario, strategy: measured.strategy, schedules: schedulesPerOSThreadsSample, threads: .os
                )
                let allocationsOnOSThreads = cmalloc_allocation_count() - allocationsBefore
                allocationsBefore = cmalloc_allocation_count()
                let sample = HarnessWorkloads.explore(
                    measured.scenario, strategy: measured.strategy, schedules: schedulesPerSample, threads: .coroutines)
                let allocationsOnCoroutines = cmalloc_allocation_count() - allocationsBefore
                let (allocations, allocatingSchedules) =
                    ScenarioThreads.platformDefault == .os
                    ? (allocationsOnOSThreads, onOSThreads.schedules) : (allocationsOnCoroutines, sample.schedules)
                let rate = Double(sample.schedules) / (sample.elapsed.nanoseconds / 1e9)
                let rateOnOSThreads = Double(onOSThreads.schedules) / (onOSThreads.elapsed.nanoseconds / 1e9)
                samples[index].coroutines.append(rate)
                samples[index].osThreads.append(rateOnOSThreads)
                samples[index].coroutinesOverOSThreads.append(rate / rateOnOSThreads)
                samples[index].allocationsPerSchedule.append(Double(allocations) / Double(allocatingSchedules))
                if let peer, let named = measured.peer {
                    let peerSample = try peer.explore(
                        named.scenario,
                        strategy: named.strategy,
                        schedules: schedulesPerSample,
                        seed: round
                    )
                    samples[index].peer.append(peerSample.schedulesPerSecond)
                    samples[index].peerAllocationsPerSchedule.append(peerSample.allocationsPerSchedule)
                    samples[index].osThreadsOverPeer.append(rateOnOSThreads / peerSample.schedulesPerSecond)
                    samples[index].coroutinesOverPeer.append(rate / peerSample.schedulesPerSecond)
                }
            }
            for (index, threads) in backends.enumerated() {
                let decision = sampleDecision(threads: threads)
                decisions[index].costs.append(decision.cost)
                decisions[index].allocations.append(decision.allocations)
            }
        }

        table.startGroup("Harness speed (issue 11 targets)")
        for (index, measured) in Self.throughputs.enumerated() {
            let median = samples[index].coroutines.median
            table.add(
                Table.Row(
                    benchmark:
                        "\(measured.scenario), \(measured.strategy), coroutines: schedules/s (anchor "
                        + "\(measured.anchor))",
                    cost: median.grouped,
                    baseline: "the same on OS threads",
                    baselineCost: samples[index].osThreads.median.grouped,
                    ratio: "\(samples[index].coroutinesOverOSThreads.median.formatted2)×",
                    target: "≥ \(measured.target.grouped)/s",
                    result: Table.verdict(median >= measured.target)
                ))
        }
        for (index, measured) in Self.throughputs.enumerated() {
            table.add(
                Table.Row(
                    benchmark: "\(measured.scenario), \(measured.strategy), \(Self.backendName(.platformDefault)): "
                        + "heap allocations per schedule",
                    cost: cmalloc_is_counting()
                        ? samples[index].allocationsPerSchedule.median.formatted2 : "not counted",
                    baseline: "per step (\(stepsPerSchedule[index].formatted2) steps a schedule)",
                    baselineCost: cmalloc_is_counting()
                        ? (samples[index].allocationsPerSchedule.median / stepsPerSchedule[index]).formatted2 : "—",
                    ratio: "—",
                    target: "—",
                    result: "—"
                ))
        }
        if peer != nil {
            addPeerRows(samples, into: &table)
        }
        let (short, long) = decisionScenarios
        for (index, threads) in backends.enumerated() {
            let backend = Self.backendName(threads)
            let cost = Duration.nanoseconds(Int64(decisions[index].costs.median))
            table.add(
                Table.Row(
                    benchmark: "a decision that keeps the running thread, \(backend) "
                        + "(\(long) vs \(short), \(Self.decisionStrategy)): cost",
                    cost: cost.formattedCost,
                    baseline: "—",
                    baselineCost: "—",
                    ratio: "—",
                    target: "≤ \(Self.decisionCostTarget.formattedCost)",
                    // A cost at or below zero is noise (the long and short samples' handoffs
                    // varied more than the decisions cost), not a target met.
                    result: cost > .zero ? Table.verdict(cost <= Self.decisionCostTarget) : "noise"
                ))
            let allocations = decisions[index].allocations.median
            table.add(
                Table.Row(
                    benchmark: "the same decision, \(backend): heap allocations",
                    cost: cmalloc_is_counting() ? allocations.formatted2 : "not counted on this platform",
                    baseline: "—",
                    baselineCost: "—",
                    ratio: "—",
                    target: "0",
                    result: cmalloc_is_counting() ? Table.verdict(allocations < 0.01) : "—"
                ))
        }
    }

    /// How a row names `threads`, marking the backend explorations use by default here.
    private static func backendName(_ threads: ScenarioThreads) -> String {
        let name = threads == .os ? "OS threads" : "coroutines"
        return threads == .platformDefault ? "\(name) (default)" : name
    }

    /// The side-by-side rows: ours (OS threads and coroutines, one of them the default) over the peer,
    /// and heap allocations per schedule of each, against issue 22's goals (≥ 1× on (a) and
    /// (b), ≥ 0.5× on the actor scenario, no more allocations than the peer on (a)).
    private func addPeerRows(_ samples: [Samples], into table: inout Table) {
        table.startGroup("Side by side with Shuttle 0.6.1 (issue 22 targets; ratios: medians of per-round ratios)")
        for (index, measured) in Self.throughputs.enumerated() where measured.peer != nil {
            let sampled = samples[index]
            let goal = measured.scenario == .actorPingPong ? 0.5 : 1.0
            for (backend, rates, ratios) in [
                (Self.backendName(.os), sampled.osThreads, sampled.osThreadsOverPeer),
                (Self.backendName(.coroutines), sampled.coroutines, sampled.coroutinesOverPeer)
            ] {
                table.add(
                    Table.Row(
                        benchmark: "\(measured.scenario), \(measured.strategy), \(backend): schedules/s",
                        cost: rates.median.grouped,
                        baseline: "Shuttle",
                        baselineCost: sampled.peer.median.grouped,
                        ratio: "\(ratios.median.formatted2)×",
                        target: "≥ \(goal.formatted2)×",
                        result: Table.verdict(ratios.median >= goal)
                    ))
            }
            guard cmalloc_is_counting() else { continue }
            let allocations = sampled.allocationsPerSchedule.median
            let peerAllocations = sampled.peerAllocationsPerSchedule.median
            let isBounded = measured.scenario == .lockedIncrements
            table.add(
                Table.Row(
                    benchmark: "\(measured.scenario), \(measured.strategy), \(Self.backendName(.platformDefault)): "
                        + "heap allocations per schedule",
                    cost: allocations.formatted2,
                    baseline: "Shuttle",
                    baselineCost: peerAllocations.formatted2,
                    ratio: "\((allocations / peerAllocations).formatted2)×",
                    target: isBounded ? "≤ Shuttle's" : "—",
                    result: isBounded ? Table.verdict(allocations <= peerAllocations) : "—"
                ))
        }
    }
}
