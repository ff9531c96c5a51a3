/// Draws the arguments of an operation in a generated scenario, and offers simpler values
/// when a failing scenario is shrunk.
///
/// A generator is a name, a closure that draws a value from a seeded ``ScenarioRandom``,
/// and a closure that lists values simpler than a given one, simplest first. Shrinking tries
/// them in that order, so the values it offers must be strictly simpler (closer to some
/// simplest value) for shrinking to end; it also stops after a fixed number of candidates.
/// The standard generators (``int(in:)``, ``element(of:)``, ``bool``, ``just(_:)``,
/// ``optional(_:)``, ``zip(_:_:)``) shrink toward zero, the first element, `false`, `nil`
/// and component-wise.
///
/// A generator that cannot produce a value returns `nil` from its draw: the test then fails
/// before anything runs, naming the generator and the operation it belongs to (a filter
/// that rejects everything, an empty list of elements).
public struct Generator<Value: Sendable>: Sendable, CustomStringConvertible {
    /// The generator's name in messages: `int(in: 0...9)`.
    public let name: String
    private let draw: @Sendable (inout ScenarioRandom) -> Value?
    private let shrink: @Sendable (Value) -> [Value]

    /// A generator called `name` that draws with `draw` (returning `nil` when it cannot
    /// produce a value) and shrinks with `shrink` (values simpler than the one given,
    /// simplest first; none by default).
    public init(
        _ name: String,
        shrink: @escaping @Sendable (Value) -> [Value] = { _ in [] },
        draw: @escaping @Sendable (inout ScenarioRandom) -> Value?
    ) {
        self.name = name
        self.draw = draw
        self.shrink = shrink
    }

    /// A value drawn from `random`, or `nil` when the generator cannot produce one.
    public func value(using random: inout ScenarioRandom) -> Value? {
        draw(&random)
    }

    /// Values simpler than `value`, simplest first, for shrinking.
    public func simpler(than value: Value) -> [Value] {
        shrink(value)
    }

    /// The values of this generator for which `isIncluded` holds: it draws up to
    /// ``filterAttempts`` times and gives up (produces no value) after that. Shrinking keeps
    /// only the simpler values that pass too.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Generator {
        let base = self
        return Generator("\(name).filter(…)", shrink: { base.simpler(than: $0).filter(isIncluded) }) { random in
            for _ in 0..<Self.filterAttempts {
                if let value = base.value(using: &random), isIncluded(value) { return value }
            }
            return nil
        }
    }

    /// How many draws ``filter(_:)`` makes before it gives up.
    public static var filterAttempts: Int { 100 }

    public var description: String { name }
}
