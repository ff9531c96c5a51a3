import Harness
import Primitives

/// Small scenarios with and without known bugs, shared by the harness's own tests.
enum HarnessScenarios {
    /// Two threads each add 1 with an unlocked load then store: one preemption loses an update.
    @Sendable static func lostUpdate(_ scenario: Scenario) {
        lostUpdate(scenario, counter: SeamAtomic(0))
    }

    /// ``lostUpdate(_:)`` on a counter of the caller's.
    static func lostUpdate(_ scenario: Scenario, counter: SeamAtomic<Int>) {
        for _ in 0..<2 {
            scenario.spawn { counter.store(counter.load() + 1) }
        }
        scenario.joinAll()
        Harness.check(counter.load() == 2, "an increment was lost: the counter is \(counter.load())")
    }

    /// Three threads each take and release a mutex three times, add 1 with an unlocked load
    /// then store, and take the mutex three times more: one preemption loses an update,
    /// among many that do not matter.
    @Sendable static func lostUpdateAmongLocks(_ scenario: Scenario) {
        let counter = SeamAtomic(0)
        let unrelated = SeamMutex()
        for _ in 0..<3 {
            scenario.spawn {
                for _ in 0..<3 { unrelated.withLock {} }
                counter.store(counter.load() + 1)
                for _ in 0..<3 { unrelated.withLock {} }
            }
        }
        scenario.joinAll()
        Harness.check(counter.load() == 3, "an increment was lost: the counter is \(counter.load())")
    }

    /// Three threads each add 1 five times under a mutex: no bug.
    @Sendable static func lockedIncrements(_ scenario: Scenario) {
        let mutex = SeamMutex()
        let counter = UncheckedBox(0)
        for _ in 0..<3 {
            scenario.spawn {
                for _ in 0..<5 { mutex.withLock { counter.value += 1 } }
            }
        }
        scenario.joinAll()
        Harness.check(counter.value == 15, "the counter is \(counter.value), not 15")
    }

    /// Two threads take two mutexes in opposite orders.
    @Sendable static func lockOrderInversion(_ scenario: Scenario) {
        let first = SeamMutex()
        let second = SeamMutex()
        scenario.spawn { first.withLock { second.withLock {} } }
        scenario.spawn { second.withLock { first.withLock {} } }
    }

    /// A waiter checks its flag without the lock before waiting: the signal can be lost.
    @Sendable static func lostWakeup(_ scenario: Scenario) {
        let mutex = SeamMutex()
        let condition = SeamCondition()
        let ready = SeamAtomic(false)
        scenario.spawn {
            if !ready.load() {
                mutex.withLock { condition.wait(on: mutex) }
            }
        }
        scenario.spawn {
            ready.store(true)
            condition.signal()
        }
    }
}

/// A value shared by controlled threads, which the harness runs one at a time.
final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

extension HarnessScenarios {
    /// A consumer waits on a condition for a flag a producer sets under the mutex. With
    /// `recheck` false it checks the flag with `if` instead of `while`: a spurious wake-up
    /// lets it go on with the flag still clear.
    static func conditionWait(recheck: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let mutex = SeamMutex()
            let condition = SeamCondition()
            let ready = UncheckedBox(false)
            scenario.spawn {
                mutex.withLock {
                    if recheck {
                        while !ready.value { condition.wait(on: mutex) }
                    } else if !ready.value {
                        condition.wait(on: mutex)
                    }
                    Harness.check(ready.value, "the consumer went on before the flag was set")
                }
            }
            scenario.spawn {
                mutex.withLock { ready.value = true }
                condition.signal()
            }
            scenario.joinAll()
        }
    }

    /// Two child tasks of a task group each add 1 to a counter: with `atomically` false by
    /// a load then a store, which loses an update when the lanes interleave them.
    static func taskGroupIncrements(atomically: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let counter = SeamAtomic(0)
            scenario.task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            if atomically {
                                _ = counter.add(1)
                            } else {
                                counter.store(counter.load() + 1)
                            }
                        }
                    }
                }
            }
            scenario.joinAll()
            Harness.check(counter.load() == 2, "an increment was lost: the counter is \(counter.load())")
        }
    }
}
