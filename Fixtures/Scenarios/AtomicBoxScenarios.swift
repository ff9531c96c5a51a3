import Harness
import Primitives

/// What the atomic-box scenarios need: a box of `Int` with an update.
public protocol IntegerUpdating: Sendable {
    /// Reads the value.
    func load() -> Int
    /// Replaces the value with `transform(value)`.
    func update(_ transform: (inout Int) -> Void)
}

extension SeedAtomicBox: IntegerUpdating where Value == Int {}

/// Scenarios for atomic boxes.
public enum AtomicBoxScenarios {
    /// Two threads each add 1 twice through `update`: no increment may be lost.
    public static func noLostUpdates<Box: IntegerUpdating>(_ box: @escaping @Sendable () -> Box)
        -> @Sendable (Scenario) -> Void
    {
        { scenario in
            let box = box()
            for _ in 0..<2 {
                scenario.spawn {
                    for _ in 0..<2 { box.update { $0 += 1 } }
                }
            }
            scenario.joinAll()
            Harness.check(box.load() == 4, "an update was lost: the box holds \(box.load())")
        }
    }
}

/// The real ``AtomicBox`` as the scenarios see it.
public struct LiveAtomicBox: IntegerUpdating {
    private let box = AtomicBox(0)

    /// A box holding 0.
    public init() {}

    public func load() -> Int { box.load() }
    public func update(_ transform: (inout Int) -> Void) { box.update(transform) }
}
