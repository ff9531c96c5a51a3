extension Generator where Value == Int {
    /// Whole numbers in `range`: uniformly, or (once in ``ScenarioRandom/repeatOdds``) one
    /// the scenario already drew from this generator (``ScenarioRandom/repeating(_:_:)``), so
    /// that values recur. Shrinks toward the number in `range` closest to zero (that number,
    /// then halfway there, then one step).
    public static func int(in range: ClosedRange<Int>) -> Generator<Int> {
        let target = min(max(0, range.lowerBound), range.upperBound)
        let name = "int(in: \(range.lowerBound)...\(range.upperBound))"
        return Generator(
            name,
            shrink: { value in
                guard value != target else { return [] }
                let halfway = value - (value - target) / 2
                let step = value > target ? value - 1 : value + 1
                var simpler: [Int] = []
                for candidate in [target, halfway, step] where candidate != value && !simpler.contains(candidate) {
                    simpler.append(candidate)
                }
                return simpler
            }
        ) { random in
            random.repeating(name) { Int.random(in: range, using: &$0) }
        }
    }

    /// Whole numbers that never recur within a scenario: `start`, then one more at each draw,
    /// whichever operation draws (operations that share the generator share the count).
    /// Nothing simpler, so shrinking keeps them distinct, and a history of them stays one the
    /// checker's unique-value fast checks apply to (``LinearizabilityChecker``).
    public static func distinct(from start: Int = 1) -> Generator<Int> {
        let name = "distinct(from: \(start))"
        return Generator(name) { random in random.nextDistinct(name, from: start) }
    }
}

extension Generator where Value == Bool {
    /// `false` or `true`, evenly; shrinks `true` to `false`.
    public static var bool: Generator<Bool> {
        Generator("bool", shrink: { $0 ? [false] : [] }) { random in Bool.random(using: &random) }
    }
}

extension Generator {
    /// Always `value`; nothing simpler.
    public static func just(_ value: Value) -> Generator {
        Generator("just(\(value))") { _ in value }
    }

    /// `nil` once in four draws, else a value of `wrapped`. Shrinks a value to `nil` first,
    /// then to `wrapped`'s simpler values.
    public static func optional<Wrapped>(_ wrapped: Generator<Wrapped>) -> Generator<Wrapped?> where Value == Wrapped? {
        Generator<Wrapped?>(
            "optional(\(wrapped.name))",
            shrink: { value in
                guard let value else { return [] }
                return [nil] + wrapped.simpler(than: value).map { $0 }
            }
        ) { random in
            if Int.random(in: 0..<4, using: &random) == 0 { return .some(nil) }
            return wrapped.value(using: &random).map { .some($0) }
        }
    }

    /// Pairs of a value of `first` and a value of `second`, drawn in that order; shrinks the
    /// first component, then the second.
    public static func zip<First, Second>(_ first: Generator<First>, _ second: Generator<Second>) -> Generator<
        (First, Second)
    >
    where Value == (First, Second) {
        Generator<(First, Second)>(
            "zip(\(first.name), \(second.name))",
            shrink: { pair in
                first.simpler(than: pair.0).map { ($0, pair.1) } + second.simpler(than: pair.1).map { (pair.0, $0) }
            }
        ) { random in
            guard let a = first.value(using: &random), let b = second.value(using: &random) else { return nil }
            return (a, b)
        }
    }
}

extension Generator where Value: Equatable {
    /// One of `values`: uniformly, or (once in ``ScenarioRandom/repeatOdds``) one the scenario
    /// already drew from this generator. Shrinks toward the first (the first, then the one
    /// halfway there, then the one before). Produces no value when `values` is empty.
    public static func element(of values: [Value]) -> Generator {
        let name = "element(of: \(values))"
        return Generator(
            name,
            shrink: { value in
                guard let index = values.firstIndex(of: value), index > 0 else { return [] }
                var simpler: [Int] = []
                for candidate in [0, index / 2, index - 1] where candidate != index && !simpler.contains(candidate) {
                    simpler.append(candidate)
                }
                return simpler.map { values[$0] }
            }
        ) { random in
            guard !values.isEmpty else { return nil }
            return values[random.repeating(name) { Int.random(in: values.indices, using: &$0) }]
        }
    }
}
