/// Runs code built on the runtime seam under controlled schedules, one thread at a time, in
/// an order a seeded strategy picks, and reports each failure with a token that replays it.
///
/// ```swift
/// @Test func noLostUpdates() {
///     Harness.explore { scenario in
///         let counter = SeamAtomic(0)
///         for _ in 0..<2 {
///             scenario.spawn { counter.store(counter.load() + 1) }   // a bug
///         }
///         scenario.joinAll()
///         Harness.check(counter.load() == 2, "an increment was lost")
///     }
/// }
/// ```
///
/// The namespace of the harness's entry points: the front doors (`explore`, `run`, `stress`)
/// are campaigns (`Campaigns/`); what a scenario calls while it runs (``check(_:_:file:line:)``)
/// sits with the exploration.
public enum Harness {}
