import Harness

/// A deliberately broken primitive and the scenario that exposes it: the harness must
/// find the failure within `budget` schedules of `strategy`.
public struct Mutant: Sendable, CustomStringConvertible {
    /// The defect's number in `shared/seeds/README.md`; 0 for defects the seeds do not list.
    public let defect: Int
    /// What is broken.
    public let summary: String
    /// The strategy the gate explores with.
    public let strategy: Strategy
    /// The schedules the gate allows.
    public let budget: Int
    /// The scenario that runs the mutant.
    public let scenario: @Sendable (Scenario) -> Void

    /// The scenario's name, for tokens.
    public var name: String { "mutant \(defect): \(summary)" }

    public var description: String { defect == 0 ? summary : "defect \(defect): \(summary)" }

    /// Every mutant the release gate runs.
    public static let all: [Mutant] = [
        Mutant(
            defect: 3,
            summary: "onExit registration is a load then a store",
            strategy: .random,
            budget: 500,
            scenario: KillableThreadScenarios.killRacesExit { SeedIOThread(.lossyRegistration, $0) }
        ),
        Mutant(
            defect: 4,
            summary: "kill() between start() and the body's entry does nothing",
            strategy: .random,
            budget: 500,
            scenario: KillableThreadScenarios.killRacesExit { SeedIOThread(.killOnlyWhenEntered, $0) }
        ),
        Mutant(
            defect: 5,
            summary: "a handler registered after a killed thread exited is never called",
            strategy: .random,
            budget: 500,
            scenario: KillableThreadScenarios.lateHandlerRuns { SeedIOThread(.lateHandlerDropped, $0) }
        ),
        Mutant(
            defect: 7,
            summary: "join() refuses a thread that has already finished",
            strategy: .random,
            budget: 100,
            scenario: KillableThreadScenarios.joinAfterExit { SeedIOThread(.joinRefusesFinished, $0) }
        ),
        Mutant(
            defect: 10,
            summary: "AtomicBox.update is a load then a store",
            strategy: .random,
            budget: 300,
            scenario: AtomicBoxScenarios.noLostUpdates { SeedAtomicBox(0) }
        ),
        Mutant(
            defect: 11,
            summary: "a worker's stop() waits without a predicate and returns early",
            strategy: .random,
            budget: 2_000,
            scenario: WorkerScenarios.stopDrainsWork { SeedWorkerThread() }
        ),
        Mutant(
            defect: 12,
            summary: "a task cancelled while waiting runs its body without a slot and returns one",
            strategy: .random,
            budget: 500,
            scenario: AsyncScenarios.limiterBoundUnderCancellation {
                SeedConcurrencyLimiter(.cancelledWaiterRuns, concurrency: 2)
            }
        ),
        Mutant(
            defect: 13,
            summary: "letting go of the limiter releases its waiters without slots",
            strategy: .random,
            budget: 100,
            scenario: AsyncScenarios.limiterReleasedWhileWaiting {
                SeedConcurrencyLimiter(.releaseAdmitsWaiters, concurrency: 1)
            }
        ),
        Mutant(
            defect: 0,
            summary: "a limiter that loses a wake-up when one task waits",
            strategy: .random,
            budget: 300,
            scenario: AsyncScenarios.limiterIsFIFO { SeedConcurrencyLimiter(.lostWakeup, concurrency: 1) }
        ),
        Mutant(
            defect: 15,
            summary: "nested reads wait behind a queued write",
            strategy: .pct(depth: 2),
            budget: 300,
            scenario: ReadWriteScenarios.nestedReads { SeedReadWriteCoordinator() }
        )
    ]
}
