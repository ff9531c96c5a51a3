/// Names a generated scenario so that it can be made again: the seed it was drawn from, and
/// the shrink steps that led from it to this scenario, each the index of the candidate taken
/// among those the scenario before it offered.
///
/// Its text form, which replay tokens carry (``ReplayToken/generatedScenario``), is the seed
/// in hexadecimal followed by `-` and each step: `9b1f03c2e4d5a687-0-4-11`.
struct ScenarioCode: Hashable, Sendable, CustomStringConvertible {
    /// The seed the scenario was drawn from.
    let seed: UInt64
    /// The shrink steps taken from it, in order.
    var path: [Int] = []

    /// The code of the scenario reached by one more shrink step, taking candidate `index`.
    func appending(_ index: Int) -> ScenarioCode {
        ScenarioCode(seed: seed, path: path + [index])
    }

    var description: String {
        ([String(seed, radix: 16)] + path.map(String.init)).joined(separator: "-")
    }

    /// Reads a code from its text form; `nil` when it is not one.
    init?(parsing text: String) {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = fields.first, let seed = UInt64(first, radix: 16) else { return nil }
        var path: [Int] = []
        for field in fields.dropFirst() {
            guard let index = Int(field), index >= 0 else { return nil }
            path.append(index)
        }
        self.init(seed: seed, path: path)
    }

    init(seed: UInt64, path: [Int] = []) {
        self.seed = seed
        self.path = path
    }
}
