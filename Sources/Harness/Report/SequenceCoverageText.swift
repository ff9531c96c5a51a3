/// The words for a ``SequenceCoverage``.
enum SequenceCoverageText {
    /// The campaign summary's name for a generated test: `stale set (10 generated)`, and when
    /// the last scenarios still brought new sequence shapes, `stale set (10 generated,
    /// sequences still new: raise HARNESS_SCENARIOS)`.
    static func summaryName(_ test: String, scenarios: Int, coverage: SequenceCoverage) -> String {
        guard coverage.isGrowing else { return "\(test) (\(scenarios) generated)" }
        return "\(test) (\(scenarios) generated, sequences still new: raise \(Knob.scenarios.name))"
    }
}

extension SequenceCoverage: CustomStringConvertible {
    /// `37 operation sequence shapes, 4 new in the last tenth of the scenarios: the budget
    /// looks marginal for the operation mix`, or without the part after the colon.
    public var description: String {
        let shapes = "\(distinctShapes) operation sequence shape\(distinctShapes == 1 ? "" : "s")"
        guard isGrowing else { return "\(shapes), none new in the last tenth of the scenarios" }
        return "\(shapes), \(newInLastTenth) new in the last tenth of the scenarios: the budget looks marginal for the"
            + " operation mix (raise \(Knob.scenarios.name))"
    }
}
