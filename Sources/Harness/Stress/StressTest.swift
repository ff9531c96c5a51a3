/// A scenario whose body reports an outcome, and the table that classifies its outcomes:
/// what ``Harness/stress(_:options:sourceLocation:_:)`` runs on real threads at full speed,
/// and what its escalation runs under the deterministic scheduler.
///
/// The same body runs in both modes (``Scenario/mode``): it spawns threads and starts tasks
/// through its ``Scenario``, joins them (``Scenario/joinAll(file:line:)``), and returns the
/// outcome it observed, such as a tuple of results or a final state, as a value. A failed
/// ``Harness/check(_:_:file:line:)``, an error thrown by the body or by one of its threads
/// or tasks, and an iteration that does not finish are forbidden outcomes whatever the table
/// says.
///
/// ```swift
/// let racingIncrements = StressTest<Int>(outcomes: [
///     .acceptable(2, meaning: "both increments"),
///     .forbidden(1, meaning: "an increment was lost"),
/// ]) { scenario in
///     let counter = AtomicBox(0)
///     for _ in 0..<2 { scenario.spawn { counter.update { $0 += 1 } } }
///     scenario.joinAll()
///     return counter.load()
/// }
/// ```
public struct StressTest<Outcome: Hashable & Sendable>: Sendable {
    /// Classifies the outcomes the body returns.
    public let outcomes: OutcomeClassification<Outcome>
    /// The scenario: it runs as thread T0 and returns the outcome it observed.
    public let body: @Sendable (Scenario) throws -> Outcome

    /// A test whose outcomes `rules` classify; an outcome no rule covers is `unlisted`.
    public init(
        outcomes rules: [OutcomeRule<Outcome>],
        unlisted: OutcomeClass = .forbidden,
        _ body: @escaping @Sendable (Scenario) throws -> Outcome
    ) {
        outcomes = OutcomeClassification(rules, unlisted: unlisted)
        self.body = body
    }
}

/// The one outcome of a scenario that reports none: it ran to its end. Its failures are its
/// failed checks, errors and hangs.
public struct ScenarioCompleted: Hashable, Sendable, CustomStringConvertible {
    /// The outcome.
    public init() {}

    public var description: String { "completed" }
}

extension StressTest where Outcome == ScenarioCompleted {
    /// A test of a scenario that checks its invariants with ``Harness/check(_:_:file:line:)``
    /// and reports no outcome: completing is acceptable, anything else forbidden.
    public init(_ body: @escaping @Sendable (Scenario) throws -> Void) {
        self.init(outcomes: [.acceptable(ScenarioCompleted(), meaning: "the scenario ran to its end")]) { scenario in
            try body(scenario)
            return ScenarioCompleted()
        }
    }
}
