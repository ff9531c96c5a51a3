import Workloads

/// The table the run prints: one row per comparison, in markdown.
struct Table {
    struct Row {
        var benchmark: String
        var cost: String
        var baseline: String
        var baselineCost: String
        var ratio: String
        var target: String
        var result: String
    }

    /// A row of schedules to a first failure: the median over the seeds (a seed that found
    /// nothing counts as more than `budget`), how many seeds found it, and the target when
    /// there is one (`bound`: the largest median that meets it).
    static func firstFailureRow(
        _ label: String,
        found: [Int?],
        budget: Int,
        target: (bound: Int, text: String)?
    ) -> Row {
        let median = found.map { $0 ?? Int.max }.median
        return Row(
            benchmark: "\(label): median (\(found.compactMap { $0 }.count)/\(found.count) seeds found it)",
            cost: median == Int.max ? "> \(budget)" : "\(median)",
            baseline: "—",
            baselineCost: "—",
            ratio: "—",
            target: target?.text ?? "—",
            result: target.map { Table.verdict(median <= $0.bound) } ?? "—"
        )
    }

    private var groupsOfRows: [(title: String, rows: [Row])] = []

    mutating func startGroup(_ title: String) {
        groupsOfRows.append((title, []))
    }

    mutating func add(_ row: Row) {
        precondition(!groupsOfRows.isEmpty, "a table row needs a group; call startGroup first")
        groupsOfRows[groupsOfRows.count - 1].rows.append(row)
    }

    mutating func add(_ result: ComparisonResult) {
        let target = result.comparison.target
        add(
            Row(
                benchmark: result.comparison.subject.name,
                cost: Self.cost(result.subjectCost, of: result.comparison.subject),
                baseline: result.comparison.baseline.name,
                baselineCost: Self.cost(result.baselineCost, of: result.comparison.baseline),
                ratio: Self.ratio(result.ratio, for: target),
                target: "\(target)",
                result: Self.verdict(target.isMet(ratio: result.ratio, cost: result.subjectCost))
            ))
    }

    /// A cost per operation, with the throughput it means when the workload moves bytes.
    static func cost(_ cost: Duration, of workload: Workload) -> String {
        guard let bytes = workload.bytesPerOperation else { return cost.formattedCost }
        let megabytesPerSecond = Double(bytes) / cost.nanoseconds * 1e9 / 1e6
        return "\(cost.formattedCost) (\(megabytesPerSecond.grouped) MB/s)"
    }

    /// The ratio of subject cost over baseline cost; for a speed-up goal, also the speed-up.
    static func ratio(_ ratio: Double, for target: Target) -> String {
        guard case .fasterBy = target else { return "\(ratio.formatted2)×" }
        return "\(ratio.formatted2)× (\((1 / ratio).formatted2)× faster)"
    }

    static func verdict(_ met: Bool?) -> String {
        switch met {
        case true?: "pass"
        case false?: "**miss**"
        case nil: "—"
        }
    }

    /// The table as markdown, with a bold row naming each group.
    var markdown: String {
        var text = [
            "| Benchmark | Cost | Baseline | Baseline cost | Ratio | Target | Result |",
            "| --- | ---: | --- | ---: | ---: | --- | --- |"
        ]
        for (title, rows) in groupsOfRows {
            text.append("| **\(title)** | | | | | | |")
            for row in rows {
                let cells = [row.benchmark, row.cost, row.baseline, row.baselineCost, row.ratio, row.target, row.result]
                text.append(
                    "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
            }
        }
        return text.joined(separator: "\n")
    }

    /// How many rows met their target and how many missed it.
    var tally: (passed: Int, missed: Int) {
        let results = groupsOfRows.flatMap(\.rows).map(\.result)
        return (results.count { $0 == "pass" }, results.count { $0 == "**miss**" })
    }
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }

    /// A cost per operation with a unit that keeps three significant digits.
    var formattedCost: String {
        let value = nanoseconds
        return switch value {
        case ..<1_000: "\(value.significant3) ns"
        case ..<1_000_000: "\((value / 1_000).significant3) µs"
        default: "\((value / 1_000_000).significant3) ms"
        }
    }
}

extension Double {
    /// The value with three significant digits (at most two decimals).
    var significant3: String {
        switch abs(self) {
        case 100...: "\(Int(rounded()))"
        case 10...: String((self * 10).rounded() / 10)
        default: formatted2
        }
    }

    /// The value rounded to a whole number, with thousands separated by commas.
    var grouped: String {
        let digits = String(Int(rounded()))
        var text = ""
        for (index, digit) in digits.reversed().enumerated() {
            if index > 0, index.isMultiple(of: 3), digit != "-" { text.append(",") }
            text.append(digit)
        }
        return String(text.reversed())
    }
}
