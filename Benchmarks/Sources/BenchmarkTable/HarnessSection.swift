import Harness
import Workloads

/// The harness's rows: schedules and decisions per second for each strategy on the two
/// fixed scenarios; the marginal cost of a scheduling decision that switches threads and of
/// one that does not, against raw handoffs measured in the same rounds; and how soon each
/// strategy finds the bug of scenario (b).
struct HarnessSection {
    /// Schedules one throughput sample explores.
    var schedulesPerSample = 300
    /// Round trips one handoff sample makes.
    var handoffRounds = 2_000
    /// Loads per thread in the long scenario of the decision-cost samples.
    var loadsPerThread = 300
    /// Schedules one decision-cost sample explores (of each length).
    var decisionSchedulesPerSample = 40
    /// How many rounds of samples.
    var rounds = 5
    /// Executions probed for the steps of a schedule.
    var probedExecutions = 20

    /// The throughput goal on scenario (a).
    static let schedulesPerSecondTarget = 60_000.0
    /// The goal for a switching decision over a raw futex handoff.
    static let switchTarget = Target.atMost(2)
    /// The goal for the median schedules to the first failure of (b), but for random walk
    /// and the portfolio (``firstFailureTarget(of:medians:)``).
    static let firstFailureTarget = 3

    /// The strategies whose decisions cost is solved for: one that switches at about half
    /// its decisions and one that switches only when a thread finishes.
    static let decisionStrategies: [Strategy] = [.random, .exhaustive(preemptionBound: 0)]

    private struct Key: Hashable {
        let scenario: HarnessScenario
        let strategy: String
    }

    func run(into table: inout Table, log: (String) -> Void) {
        let cpu = Handoffs.currentCPU
        let short = HarnessScenario.loads(perThread: 0)
        let long = HarnessScenario.loads(perThread: loadsPerThread)
        var throughput: [Key: [Double]] = [:]
        var schedule: [Key: [Duration]] = [:]
        var handoffs: [Handoffs.Mechanism: [Duration]] = [:]
        for round in 0..<rounds {
            log("harness round \(round + 1)/\(rounds)")
            for scenario in HarnessScenario.fixed {
                for strategy in HarnessWorkloads.strategies {
                    let sample = HarnessWorkloads.explore(scenario, strategy: strategy, schedules: schedulesPerSample)
                    throughput[Key(scenario: scenario, strategy: "\(strategy)"), default: []]
                        .append(Double(sample.schedules) / (sample.elapsed.nanoseconds / 1e9))
                }
            }
            for scenario in [short, long] {
                for strategy in Self.decisionStrategies {
                    let sample = HarnessWorkloads.explore(
                        scenario, strategy: strategy, schedules: decisionSchedulesPerSample)
                    schedule[Key(scenario: scenario, strategy: "\(strategy)"), default: []].append(
                        sample.elapsed / sample.schedules)
                }
            }
            for mechanism in Handoffs.Mechanism.allCases {
                handoffs[mechanism, default: []].append(Handoffs.measure(mechanism, rounds: handoffRounds, cpu: cpu))
            }
        }
        let futex = handoffs[.futex]!.median
        let condvar = handoffs[.condvar]!.median

        for scenario in HarnessScenario.fixed {
            table.startGroup("Harness: \(scenario), schedules/s (decisions/s)")
            for strategy in HarnessWorkloads.strategies {
                log("harness: probing the steps of \(scenario) under \(strategy)")
                let perSecond = throughput[Key(scenario: scenario, strategy: "\(strategy)")]!.median
                let steps = HarnessWorkloads.stepsPerSchedule(
                    scenario, strategy: strategy, executions: probedExecutions)
                let isFixedTarget = scenario == .lockedIncrements
                table.add(
                    Table.Row(
                        benchmark:
                            "\(strategy) (\(steps.decisions.significant3) decisions, \(steps.switches.significant3) "
                            + "switches a schedule)",
                        cost: "\(perSecond.grouped) (\((perSecond * steps.decisions).grouped))",
                        baseline: isFixedTarget ? "Shuttle 0.6: user-space switches (DESIGN.md, not run here)" : "—",
                        baselineCost: isFixedTarget ? "~60,000" : "—",
                        ratio: "—",
                        target: isFixedTarget ? "≥ \(Self.schedulesPerSecondTarget.grouped)/s" : "—",
                        result: isFixedTarget ? Table.verdict(perSecond >= Self.schedulesPerSecondTarget) : "—"
                    ))
            }
        }

        table.startGroup(
            "Harness: marginal cost of one scheduling decision (\(short) vs \(long), "
                + "\(Self.decisionStrategies.map(\.description).joined(separator: " and ")))"
        )
        log("harness: probing the steps of the decision-cost scenarios")
        let costs = decisionCosts(schedule: schedule, short: short, long: long)
        let switchRatio = costs.switching / futex
        table.add(
            Table.Row(
                benchmark: "a decision that switches threads",
                cost: costs.switching.formattedCost,
                baseline: "raw futex handoff, both threads pinned to one CPU",
                baselineCost: futex.formattedCost,
                ratio: "\(switchRatio.formatted2)×",
                target: "\(Self.switchTarget)",
                result: Table.verdict(Self.switchTarget.isMet(ratio: switchRatio, cost: costs.switching))
            ))
        table.add(
            Table.Row(
                benchmark: "a decision that keeps the running thread",
                cost: costs.staying.formattedCost,
                baseline: "raw futex handoff, pinned",
                baselineCost: futex.formattedCost,
                ratio: "\((costs.staying / futex).formatted2)×",
                target: "—",
                result: "—"
            ))
        table.add(
            Table.Row(
                benchmark: "a decision that switches threads",
                cost: costs.switching.formattedCost,
                baseline: "raw condvar ping-pong, pinned",
                baselineCost: condvar.formattedCost,
                ratio: "\((costs.switching / condvar).formatted2)×",
                target: "—",
                result: "—"
            ))
        table.add(
            Table.Row(
                benchmark: "fixed cost of a schedule (\(short), \(HarnessWorkloads.strategies[0]))",
                cost: costs.fixed.formattedCost,
                baseline: "—",
                baselineCost: "—",
                ratio: "—",
                target: "—",
                result: "—"
            ))

        table.startGroup("Harness: schedules until the first failure of (b), 20 seeds, budget 1000")
        var medians: [String: Int] = [:]
        for strategy in HarnessWorkloads.strategies + [.pct(depth: 2), .pos, .surw, .portfolio] {
            log("harness: first failures under \(strategy)")
            let found = HarnessWorkloads.schedulesToFirstFailure(strategy: strategy, seeds: 0..<20, budget: 1000)
            medians["\(strategy)"] = found.map { $0 ?? Int.max }.median
            let target = Self.firstFailureTarget(of: strategy, medians: medians)
            table.add(Table.firstFailureRow("\(strategy)", found: found, budget: 1000, target: target))
        }
    }

    /// The issue's goal for `strategy`'s median schedules to the first failure of (b):
    /// random ≤ 2, the portfolio no more than its best member (random, PCT, POS, SURW, whose
    /// `medians` are measured first), every other strategy ≤ 3.
    private static func firstFailureTarget(of strategy: Strategy, medians: [String: Int]) -> (bound: Int, text: String)
    {
        if strategy == .random {
            return (2, "≤ 2")
        }
        if strategy == .portfolio {
            let members: [Strategy] = [.random, .pct(), .pos, .surw]
            let best = members.compactMap { medians["\($0)"] }.min() ?? Int.max
            return (best, "≤ best member (\(best == Int.max ? "> 1000" : "\(best)"))")
        }
        return (firstFailureTarget, "≤ \(firstFailureTarget)")
    }

    /// Solves for the marginal cost of a switching and of a non-switching decision from how
    /// much longer a schedule of `long` takes than one of `short` under each of the two
    /// decision strategies, given how many more decisions of each kind it makes:
    /// `Δtime = switching × Δswitches + staying × Δstays`, one equation per strategy.
    private func decisionCosts(
        schedule: [Key: [Duration]],
        short: HarnessScenario,
        long: HarnessScenario
    ) -> (switching: Duration, staying: Duration, fixed: Duration) {
        var rows: [(time: Double, switches: Double, stays: Double)] = []
        for strategy in Self.decisionStrategies {
            let shortSteps = HarnessWorkloads.stepsPerSchedule(short, strategy: strategy, executions: probedExecutions)
            let longSteps = HarnessWorkloads.stepsPerSchedule(
                long, strategy: strategy, executions: probedExecutions / 4)
            let shortTime = schedule[Key(scenario: short, strategy: "\(strategy)")]!.median
            let longTime = schedule[Key(scenario: long, strategy: "\(strategy)")]!.median
            rows.append(
                (
                    time: (longTime - shortTime).nanoseconds,
                    switches: longSteps.switches - shortSteps.switches,
                    stays: (longSteps.decisions - longSteps.switches) - (shortSteps.decisions - shortSteps.switches)
                ))
        }
        let determinant = rows[0].switches * rows[1].stays - rows[1].switches * rows[0].stays
        let switching = (rows[0].time * rows[1].stays - rows[1].time * rows[0].stays) / determinant
        let staying = (rows[0].switches * rows[1].time - rows[1].switches * rows[0].time) / determinant
        let fixed = schedule[Key(scenario: short, strategy: "\(Self.decisionStrategies[0])")]!.median
        return (.nanoseconds(Int64(switching)), .nanoseconds(Int64(staying)), fixed)
    }
}
