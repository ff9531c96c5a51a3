@testable import Harness
import Primitives

/// The distinct objects a test's executions met, each kept alive to the end of the test, so
/// that no two can share an address.
final class DistinctObjects<Object: AnyObject & Sendable>: Sendable {
    private let seen = AtomicBox<[Object]>([])

    /// Notes `object`, unless it was met already.
    func note(_ object: Object) {
        seen.update { seen in
            if !seen.contains(where: { $0 === object }) { seen.append(object) }
        }
    }

    /// How many distinct objects were met.
    var count: Int { seen.load().count }

    /// Explores `body` on one worker, `schedules` schedules from `seed`, noting the object each
    /// execution's body returns: the report, and how many distinct objects were met.
    static func met(
        in scenario: String, schedules: Int, seed: UInt64, _ body: @escaping @Sendable (Scenario) -> Object?
    ) throws -> (report: ExplorationReport, count: Int) {
        let objects = DistinctObjects()
        let report = try Harness.run(
            scenario, options: ExplorationOptions(strategy: .random, schedules: schedules, seed: seed)
        ) { scenario in
            if let object = body(scenario) { objects.note(object) }
        }
        return (report, objects.count)
    }
}
