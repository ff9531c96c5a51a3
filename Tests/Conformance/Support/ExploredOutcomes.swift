import Harness
import Synchronization
import Testing

/// The values `body` returned across an exploration of `schedules` random schedules, in the
/// test's own process: how a test shows that a racy operation has each of its outcomes in
/// some schedule. Throws what ``Harness/run(_:options:_:)`` throws; a failed schedule is
/// recorded as an issue at the caller.
func exploredOutcomes<Value: Hashable & Sendable>(
    _ name: String,
    schedules: Int = 100,
    timeoutsRaceProgress: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (Scenario) -> Value
) throws -> Set<Value> {
    let seen = SeenValues<Value>()
    var options = ExplorationOptions(schedules: schedules, seed: 1, keepsFailures: false)
    options.timeoutsRaceProgress = timeoutsRaceProgress
    let report = try Harness.run(name, options: options) { scenario in seen.insert(body(scenario)) }
    if let failure = report.failure {
        Issue.record("\(name) failed: \(failure.reason)", sourceLocation: sourceLocation)
    }
    return seen.values
}

/// Values gathered from the scenario's threads, outside the harness's schedule.
private final class SeenValues<Value: Hashable & Sendable>: Sendable {
    private let storage = Mutex<Set<Value>>([])

    func insert(_ value: Value) { storage.withLock { _ = $0.insert(value) } }

    var values: Set<Value> { storage.withLock { $0 } }
}
