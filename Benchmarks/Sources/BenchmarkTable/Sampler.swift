import Workloads

/// Measures workloads: sizes each sample to a target duration, then takes samples of a
/// subject and its baseline alternately, so both see the same machine.
struct Sampler {
    /// How long one sample should take.
    let sampleDuration: Duration
    /// How many samples of each side.
    let rounds: Int

    /// The operations per sample that take about `sampleDuration`, after a warm-up.
    func calibrate(_ workload: Workload) async -> Int {
        var operations = 1
        while true {
            let elapsed = await workload.measure(operations)
            if elapsed >= sampleDuration / 8 || operations >= 1 << 30 {
                let scale = sampleDuration / max(elapsed, .nanoseconds(1))
                return max(1, min(1 << 30, Int(Double(operations) * scale)))
            }
            operations *= 4
        }
    }

    /// The median cost per operation of each side and the median of the per-round ratios
    /// (subject over baseline), sampling in the order ABBA ABBA … so that neither side
    /// always goes first.
    func compare(_ comparison: Comparison) async -> ComparisonResult {
        let subjectOperations = await calibrate(comparison.subject)
        let baselineOperations = await calibrate(comparison.baseline)
        var subjectCosts: [Duration] = []
        var baselineCosts: [Duration] = []
        var ratios: [Double] = []
        for round in 0..<rounds {
            let subject: Duration
            let baseline: Duration
            if round.isMultiple(of: 2) {
                subject = await comparison.subject.measure(subjectOperations) / subjectOperations
                baseline = await comparison.baseline.measure(baselineOperations) / baselineOperations
            } else {
                baseline = await comparison.baseline.measure(baselineOperations) / baselineOperations
                subject = await comparison.subject.measure(subjectOperations) / subjectOperations
            }
            subjectCosts.append(subject)
            baselineCosts.append(baseline)
            ratios.append(subject / baseline)
        }
        return ComparisonResult(
            comparison: comparison,
            subjectCost: subjectCosts.median,
            baselineCost: baselineCosts.median,
            ratio: ratios.median
        )
    }
}

/// What one comparison measured.
struct ComparisonResult {
    let comparison: Comparison
    let subjectCost: Duration
    let baselineCost: Duration
    /// The median of the per-round ratios of subject cost over baseline cost.
    let ratio: Double
}

extension Array where Element: Comparable {
    /// The middle element after sorting (the upper one of the two middles of an even count).
    var median: Element {
        precondition(!isEmpty, "the median of no samples")
        return sorted()[count / 2]
    }
}
