import Fixtures
import Harness
import Primitives

/// Small stress tests with known outcomes, shared by the stress engine's own tests.
enum StressScenarios {
    /// Two threads each add 1 with a load, a 100 µs sleep and a store: under stress, with
    /// both released together, most iterations lose an increment.
    static let sleepyIncrements = StressTest<Int>(outcomes: [
        .acceptable(2, meaning: "both increments counted"),
        .forbidden(1, meaning: "an increment was lost"),
    ]) { scenario in
        let counter = SeamAtomic(0)
        for _ in 0..<2 {
            scenario.spawn {
                let seen = counter.load()
                Seam.sleep(for: .microseconds(100))
                counter.store(seen + 1)
            }
        }
        scenario.joinAll()
        return counter.load()
    }

    /// Three threads each add 1 five times under a mutex, and return the total: no bug.
    static let lockedIncrements = StressTest<Int>(outcomes: [.acceptable(15, meaning: "every increment counted")]) { scenario in
        let mutex = SeamMutex()
        let counter = SeamAtomic(0)
        for _ in 0..<3 {
            scenario.spawn {
                for _ in 0..<5 { mutex.withLock { counter.store(counter.load() + 1) } }
            }
        }
        scenario.joinAll()
        return counter.load()
    }

    /// Returns how it ran: stress is forbidden, so stress always sees a forbidden outcome that
    /// no schedule of the deterministic scheduler can end in.
    static let forbiddenOnlyUnderStress = StressTest<ScenarioMode>(outcomes: [
        .acceptable(.controlled, meaning: "ran under the deterministic scheduler"),
        .forbidden(.stress, meaning: "ran under stress"),
    ]) { scenario in
        scenario.spawn {}
        scenario.joinAll()
        return scenario.mode
    }

    /// Two threads dequeue from a queue holding 1 and 2, reading the front and removing it in
    /// two critical sections with a 100 µs sleep between: both can dequeue 1, which the
    /// linearizability check rejects.
    static let splitDequeue = StressTest { scenario in
        let recorder = HistoryRecorder<QueueOperation<Int>, QueueResult<Int>>()
        let queue = AtomicBox<[Int]>([])
        for value in [1, 2] {
            recorder.record(.enqueue(value), client: 0) {
                queue.update { $0.append(value) }
                return .enqueued
            }
        }
        for client in 1...2 {
            scenario.spawn {
                recorder.record(.dequeue, client: client) {
                    guard let front = queue.load().first else { return .empty }
                    Seam.sleep(for: .microseconds(100))
                    queue.update { $0.removeFirst() }
                    return .dequeued(front)
                }
            }
        }
        scenario.joinAll()
        let verdict = LinearizabilityChecker.check(recorder.history, model: QueueModel<Int>())
        Harness.check(verdict.isLinearizable, "\(verdict)")
    }

    /// A task fails a check.
    static let checkFailsInTask = StressTest { scenario in
        scenario.task { Harness.check(false, "checked from a task") }
        scenario.joinAll()
    }

    /// A spawned thread throws.
    static let threadThrows = StressTest { scenario in
        scenario.spawn { throw ScenarioError.failed }
        scenario.joinAll()
    }

    /// An error a scenario thread throws.
    enum ScenarioError: Error {
        case failed
    }

    /// Seed defect 15: a read nested in a read, while a write waits, deadlocks.
    static let nestedReadsDeadlock = StressTest(ReadWriteScenarios.nestedReads { SeedReadWriteCoordinator() })

    /// The spawned threads record whether the root thread had finished spawning when they
    /// started: with the start gate they always had.
    static let startsBehindTheGate = StressTest<Bool>(outcomes: [
        .acceptable(true, meaning: "every thread started after the last spawn"),
        .forbidden(false, meaning: "a thread started before the root had spawned them all"),
    ]) { scenario in
        let spawnedAll = SeamAtomic(false)
        let early = SeamAtomic(false)
        for _ in 0..<3 {
            scenario.spawn { if !spawnedAll.load() { early.store(true) } }
        }
        spawnedAll.store(true)
        scenario.joinAll()
        return !early.load()
    }
}
