import Harness
import Primitives

/// The scenarios the harness is measured on.
public enum HarnessScenario: Hashable, Sendable, CustomStringConvertible {
    /// (a) Three threads each add 1 five times to a shared counter under a `SeamMutex`: no bug.
    case lockedIncrements
    /// (b) Two threads each add 1 with a `SeamAtomic` load then store: one preemption loses
    /// an update.
    case lostUpdate
    /// Three tasks each call an actor twice, so its jobs hop between the tasks and the actor
    /// on the harness's task executor: no bug.
    case actorPingPong
    /// Two threads each load a `SeamAtomic` `perThread` times: as many scheduling decisions
    /// as wanted, for the marginal cost of one.
    case loads(perThread: Int)

    /// The two fixed scenarios whose throughput the table reports.
    public static let fixed: [HarnessScenario] = [.lockedIncrements, .lostUpdate]

    public var description: String {
        switch self {
        case .lockedIncrements: "(a) 3 threads × 5 locked increments"
        case .lostUpdate: "(b) 2 threads × 1 unlocked load-then-store"
        case .actorPingPong: "3 tasks × 2 calls to one actor"
        case .loads(let perThread): "2 threads × \(perThread) atomic loads"
        }
    }

    /// The scenario's body. With `checked` false, (b) does not check its counter, so an
    /// exploration runs its whole budget (for throughput); with `checked` true, a lost
    /// update fails the execution. The other scenarios have nothing to check but (a)'s
    /// total, which is always right.
    func body(checked: Bool) -> @Sendable (Scenario) -> Void {
        switch self {
        case .lockedIncrements:
            return { scenario in
                let mutex = SeamMutex()
                let counter = ScenarioCounter()
                for _ in 0..<3 {
                    scenario.spawn {
                        for _ in 0..<5 { mutex.withLock { counter.value += 1 } }
                    }
                }
                scenario.joinAll()
                Harness.check(counter.value == 15, "the counter is \(counter.value), not 15")
            }
        case .lostUpdate:
            return { scenario in
                let counter = SeamAtomic(0)
                for _ in 0..<2 {
                    scenario.spawn { counter.store(counter.load() + 1) }
                }
                scenario.joinAll()
                if checked {
                    Harness.check(counter.load() == 2, "an increment was lost: the counter is \(counter.load())")
                }
            }
        case .actorPingPong:
            return { scenario in
                let actor = ScenarioActor()
                for _ in 0..<3 {
                    scenario.task {
                        for _ in 0..<2 { await actor.increment() }
                    }
                }
                scenario.joinAll()
            }
        case .loads(let perThread):
            return { scenario in
                let cell = SeamAtomic(0)
                for _ in 0..<2 {
                    scenario.spawn {
                        for _ in 0..<perThread { consume(cell.load()) }
                    }
                }
                scenario.joinAll()
            }
        }
    }
}

/// The actor of ``HarnessScenario/actorPingPong``.
actor ScenarioActor {
    private(set) var value = 0

    func increment() { value += 1 }
}

/// A counter shared by controlled threads, which the harness runs one at a time; guarded
/// by a `SeamMutex` where it is shared.
final class ScenarioCounter: @unchecked Sendable {
    var value = 0
}
