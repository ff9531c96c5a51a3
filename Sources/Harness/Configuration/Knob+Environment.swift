extension Knob {
    /// This knob's value in `environment`; `nil` when it is unset or empty.
    public func value(in environment: [String: String]) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `environment` without its empty values, once every `HARNESS_` variable in it has been
    /// found to be a knob (or a variable the harness sets for its own children). Throws for
    /// the first unknown one, in name order, naming the nearest knob when one is close.
    static func settings(in environment: [String: String]) throws(HarnessConfigurationError) -> [String: String] {
        let known = Set(all.map(\.name)).union(ChildProcess.all)
        let unknown = environment.keys.filter { $0.hasPrefix("HARNESS_") && !known.contains($0) }.sorted()
        if let name = unknown.first {
            throw .unknownVariable(name: name, nearest: nearest(to: name))
        }
        return environment.filter { !$0.value.isEmpty }
    }

    /// The knob whose name is fewest edits from `name`, when it is within a third of the
    /// name's length: a misspelling, not another word.
    static func nearest(to name: String) -> String? {
        let scored = all.map { (name: $0.name, distance: editDistance(Array(name), Array($0.name))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= max(2, name.count / 3) else {
            return nil
        }
        return best.name
    }

    /// The Levenshtein distance between `a` and `b`: insertions, deletions and substitutions.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
