import Harness
import Primitives

/// Small concurrency bugs of the kinds people write, each a scenario that fails under some
/// schedules: what the strategies' schedules to the first failure are measured on, so that
/// a change to a strategy is judged on many bugs rather than one.
public enum BugPattern: CaseIterable, Sendable, CustomStringConvertible {
    /// Two threads each add 1 to an atomic with a load then a store.
    case lostUpdate
    /// Two threads each read a counter under a lock, then write it back plus 1 under the lock
    /// again: every access is locked, the increment is still not atomic.
    case lockedLostUpdate
    /// Two threads each initialize a lazily created value when they see none: it can be
    /// created twice.
    case checkThenAct
    /// A thread reads a cell and later swaps it with a compare-and-exchange, while another
    /// changes it and changes it back in between: the swap succeeds on a changed cell.
    case aba
    /// A writer sets its ready flag before the data it publishes; a reader that sees the flag
    /// reads the data.
    case publicationOrder
    /// Two threads take two locks in opposite orders.
    case lockOrderDeadlock
    /// Three threads: the bug needs T1's write between T0's two writes, and T2's check
    /// between T1's write and T0's second.
    case threeThreadOrder
    /// A consumer waits on a condition with `if` instead of `while`, and two consumers share
    /// one item: the second wakes to an empty queue.
    case ifInsteadOfWhile

    public var description: String {
        switch self {
        case .lostUpdate: "lost update (atomic load, store)"
        case .lockedLostUpdate: "lost update (locked read, locked write)"
        case .checkThenAct: "check then act (lazy init twice)"
        case .aba: "ABA (compare-and-exchange on a changed-back cell)"
        case .publicationOrder: "publication order (flag before data)"
        case .lockOrderDeadlock: "deadlock (opposite lock orders)"
        case .threeThreadOrder: "3-thread ordering"
        case .ifInsteadOfWhile: "condition wait with if, 2 consumers"
        }
    }

    /// The scenario, which fails (a check, or a deadlock) under the schedules that show the
    /// bug.
    public var body: @Sendable (Scenario) -> Void {
        switch self {
        case .lostUpdate: HarnessScenario.lostUpdate.body(checked: true)
        case .lockedLostUpdate: Self.lockedLostUpdateBody
        case .checkThenAct: Self.checkThenActBody
        case .aba: Self.abaBody
        case .publicationOrder: Self.publicationOrderBody
        case .lockOrderDeadlock: Self.lockOrderDeadlockBody
        case .threeThreadOrder: Self.threeThreadOrderBody
        case .ifInsteadOfWhile: Self.ifInsteadOfWhileBody
        }
    }

    private static let lockedLostUpdateBody: @Sendable (Scenario) -> Void = { scenario in
        let mutex = SeamMutex()
        let counter = ScenarioCounter()
        for _ in 0..<2 {
            scenario.spawn {
                let seen = mutex.withLock { counter.value }
                mutex.withLock { counter.value = seen + 1 }
            }
        }
        scenario.joinAll()
        Harness.check(counter.value == 2, "an increment was lost: the counter is \(counter.value)")
    }

    private static let checkThenActBody: @Sendable (Scenario) -> Void = { scenario in
        let instance = SeamAtomic(0)
        let creations = SeamAtomic(0)
        for thread in 1...2 {
            scenario.spawn {
                if instance.load() == 0 {
                    _ = creations.add(1)
                    instance.store(thread)
                }
            }
        }
        scenario.joinAll()
        Harness.check(creations.load() == 1, "the value was created \(creations.load()) times")
    }

    private static let abaBody: @Sendable (Scenario) -> Void = { scenario in
        let cell = SeamAtomic(0)
        let writes = SeamAtomic(0)
        scenario.spawn {
            let writesBefore = writes.load()
            let seen = cell.load()
            let swapped = cell.compareExchange(expected: seen, desired: 7).exchanged
            Harness.check(!swapped || writes.load() == writesBefore, "swapped a cell changed since it was read")
        }
        scenario.spawn {
            cell.store(1)
            _ = writes.add(1)
            cell.store(0)
            _ = writes.add(1)
        }
        scenario.joinAll()
    }

    private static let publicationOrderBody: @Sendable (Scenario) -> Void = { scenario in
        let data = SeamAtomic(0)
        let ready = SeamAtomic(false)
        scenario.spawn {
            ready.store(true)
            data.store(42)
        }
        scenario.spawn {
            if ready.load() {
                let seen = data.load()
                Harness.check(seen == 42, "read \(seen) after the flag said the data was ready")
            }
        }
        scenario.joinAll()
    }

    private static let lockOrderDeadlockBody: @Sendable (Scenario) -> Void = { scenario in
        let first = SeamMutex()
        let second = SeamMutex()
        scenario.spawn { first.withLock { second.withLock {} } }
        scenario.spawn { second.withLock { first.withLock {} } }
        scenario.joinAll()
    }

    private static let threeThreadOrderBody: @Sendable (Scenario) -> Void = { scenario in
        let stage = SeamAtomic(0)
        let flag = SeamAtomic(0)
        scenario.spawn {
            stage.store(1)
            stage.store(2)
        }
        scenario.spawn { flag.store(1) }
        scenario.spawn {
            let flagSeen = flag.load()
            let stageSeen = stage.load()
            Harness.check(!(flagSeen == 1 && stageSeen == 1), "saw the flag while the stage was half done")
        }
        scenario.joinAll()
    }

    private static let ifInsteadOfWhileBody: @Sendable (Scenario) -> Void = { scenario in
        let mutex = SeamMutex()
        let nonEmpty = SeamCondition()
        let items = ScenarioCounter()
        for _ in 0..<2 {
            scenario.spawn {
                mutex.withLock {
                    if items.value == 0 { nonEmpty.wait(on: mutex) }
                    if items.value > 0 { items.value -= 1 } else { Harness.check(false, "woke to an empty queue") }
                }
            }
        }
        scenario.spawn {
            mutex.withLock {
                items.value += 1
                nonEmpty.broadcast()
            }
        }
        scenario.spawn {
            mutex.withLock {
                items.value += 1
                nonEmpty.signal()
            }
        }
        scenario.joinAll()
    }
}

extension HarnessWorkloads {
    /// For each seed, the number of schedules `strategy` ran until `body` first failed, or
    /// `nil` when it found no failure within `budget` schedules.
    public static func schedulesToFirstFailure(
        of name: String,
        _ body: @escaping @Sendable (Scenario) -> Void,
        strategy: Strategy,
        seeds: Range<UInt64>,
        budget: Int
    ) -> [Int?] {
        seeds.map { seed in
            let options = ExplorationOptions(strategy: strategy, schedules: budget, seed: seed)
            let report = runReport(name, options: options, body)
            return report.failure == nil ? nil : report.schedulesRun
        }
    }
}
