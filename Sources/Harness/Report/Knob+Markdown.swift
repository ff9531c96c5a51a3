extension Knob {
    /// `knobs` as a Markdown table, one row each: the form the README lists them in, which a
    /// test checks against this table.
    public static func markdownTable(_ knobs: [Knob]) -> String {
        let header = "| variable | meaning | accepts | default | read by |\n| --- | --- | --- | --- | --- |\n"
        return header
            + knobs.map { knob in
                let readers = FrontDoor.allCases.filter(knob.readBy.contains).map { "`\($0.rawValue)`" }
                return "| `\(knob.name)` | \(knob.meaning) | \(knob.accepts) | \(knob.defaultValue) | "
                    + readers.joined(separator: ", ") + " |"
            }.joined(separator: "\n") + "\n"
    }

    /// The knobs of stress runs alone; the README lists them with stress runs.
    public static var stressOnly: [Knob] { all.filter { $0.readBy == [.stress] } }
    /// The knobs of explorations, the README's first table.
    public static var exploring: [Knob] { all.filter { $0.readBy != [.stress] } }
}
