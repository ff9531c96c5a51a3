import Harness
import Workloads

/// The strategy comparison (`--strategies`): for each mutant and deep bug, how many of 10
/// seeds each strategy found it in within the same budget, and the median schedules it
/// needed. The guided strategy's target: at least as many seeds as the best blind strategy
/// on every case, and on the deep ones more seeds, or as many in a lower median.
struct StrategySection {
    var seeds: Range<UInt64> = 0..<10

    func run(into table: inout Table, log: (String) -> Void) {
        table.startGroup("Strategies: seeds of \(seeds.count) that found the bug within the budget (median schedules)")
        for scenario in StrategyComparison.cases {
            var found: [String: Int] = [:]
            var medians: [String: Int] = [:]
            var cells: [String] = []
            for strategy in StrategyComparison.strategies {
                log("strategies: \(scenario.name) under \(strategy)")
                let firsts = StrategyComparison.firstFailures(scenario, strategy: strategy, seeds: seeds)
                let hits = firsts.compactMap { $0 }
                found["\(strategy)"] = hits.count
                let median = firsts.map { $0 ?? Int.max }.median
                medians["\(strategy)"] = median
                cells.append(
                    "\(strategy) \(hits.count)/\(seeds.count) "
                        + "(\(median == Int.max ? "> \(scenario.budget)" : "\(median)"))"
                )
            }
            let blindStrategies = StrategyComparison.strategies.filter { $0 != .guided }
            let blind = blindStrategies.compactMap { found["\($0)"] }.max() ?? 0
            let blindMedian =
                blindStrategies.filter { found["\($0)"] == blind }.compactMap { medians["\($0)"] }.min() ?? Int.max
            let guided = found["\(Strategy.guided)"] ?? 0
            let guidedMedian = medians["\(Strategy.guided)"] ?? Int.max
            // "More" on a deep bug: more seeds, or as many seeds in fewer schedules.
            let met =
                scenario.isDeep ? guided > blind || (guided == blind && guidedMedian < blindMedian) : guided >= blind
            table.add(
                Table.Row(
                    benchmark: "\(scenario.name), budget \(scenario.budget)",
                    cost: cells.joined(separator: ", "),
                    baseline: "best blind",
                    baselineCost: "\(blind)/\(seeds.count)",
                    ratio: "guided \(guided)/\(seeds.count)",
                    target: scenario.isDeep ? "guided > best blind (seeds, then median)" : "guided ≥ best blind",
                    result: Table.verdict(met)
                ))
        }
    }
}
