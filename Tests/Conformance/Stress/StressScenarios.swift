import Harness
import Primitives
import Synchronization

/// Small stress tests with known outcomes, shared by the stress engine's own tests. Where a
/// scenario is about a race, stress does not leave its outcome to how the real threads
/// happen to interleave (a loaded machine may never show it): the threads wait for each
/// other at the race, so every iteration ends as the test expects. Under the deterministic
/// scheduler they do not, and the escalation has to find the schedule itself.
enum StressScenarios {
    /// Two threads each add 1 with a load and a store. Under stress, every other iteration
    /// (the first, the third, …) both threads load before either stores, and an increment is
    /// lost; in the others the second thread loads once the first has stored, and none is: a
    /// run of `2n` iterations counts `n` of each. Under the scheduler an increment is lost
    /// when a preemption falls between a thread's load and its store.
    static func alternatelyLostIncrements() -> StressTest<Int> {
        let iterations = IterationCounter()
        return StressTest<Int>(outcomes: [
            .acceptable(2, meaning: "both increments counted"),
            .forbidden(1, meaning: "an increment was lost")
        ]) { scenario in
            let losesOne = scenario.mode == .stress ? iterations.next().isMultiple(of: 2) : nil
            let counter = SeamAtomic(0)
            let loaded = SeamAtomic(0)
            let stored = SeamAtomic(0)
            for thread in 0..<2 {
                scenario.spawn {
                    if losesOne == false, thread == 1 { spin(until: stored, reaches: 1) }
                    let seen = counter.load()
                    if losesOne == true {
                        loaded.add(1)
                        spin(until: loaded, reaches: 2)
                    }
                    counter.store(seen + 1)
                    stored.add(1)
                }
            }
            scenario.joinAll()
            return counter.load()
        }
    }

    /// Counts the iterations of one stress run, across its runner threads.
    private final class IterationCounter: Sendable {
        private let count = Atomic(0)

        /// The number of the iteration that asks, from 0.
        func next() -> Int { count.add(1, ordering: .relaxed).oldValue }
    }

    /// Yields until `cell` holds `value` or more: how the threads of a stress iteration wait
    /// for each other at a race.
    private static func spin(until cell: SeamAtomic<Int>, reaches value: Int) {
        while cell.load() < value { Seam.yield() }
    }

    /// Three threads each add 1 five times under a mutex, and return the total: no bug.
    static let lockedIncrements = StressTest<Int>(outcomes: [.acceptable(15, meaning: "every increment counted")]) {
        scenario in
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
        .forbidden(.stress, meaning: "ran under stress")
    ]) { scenario in
        scenario.spawn {}
        scenario.joinAll()
        return scenario.mode
    }

    /// Two threads dequeue from a queue holding 1 and 2, reading the front and removing it in
    /// two critical sections: both can dequeue 1, which the linearizability check rejects.
    /// Under stress both read the front before either removes it, in every iteration.
    static let splitDequeue = StressTest { scenario in
        let underStress = scenario.mode == .stress
        let readFront = SeamAtomic(0)
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
                    if underStress {
                        readFront.add(1)
                        spin(until: readFront, reaches: 2)
                    }
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

    /// Two threads take two mutexes in opposite orders. Under stress each, holding its first,
    /// waits until the other holds its own: every iteration deadlocks. Under the scheduler a
    /// deadlock needs a preemption between a thread's two locks.
    static let lockOrderInversion = StressTest { scenario in
        let underStress = scenario.mode == .stress
        let first = SeamMutex()
        let second = SeamMutex()
        let holding = SeamAtomic(0)
        for (outer, inner) in [(first, second), (second, first)] {
            scenario.spawn {
                outer.withLock {
                    if underStress {
                        holding.add(1)
                        spin(until: holding, reaches: 2)
                    }
                    inner.withLock {}
                }
            }
        }
        scenario.joinAll()
    }

    /// The spawned threads record whether the root thread had finished spawning when they
    /// started: with the start gate they always had.
    static let startsBehindTheGate = StressTest<Bool>(outcomes: [
        .acceptable(true, meaning: "every thread started after the last spawn"),
        .forbidden(false, meaning: "a thread started before the root had spawned them all")
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
