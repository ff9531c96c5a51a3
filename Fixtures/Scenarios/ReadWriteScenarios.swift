import Harness
import Primitives

/// What the read/write scenarios need of a coordinator: synchronous reads and writes.
public protocol ReadWriteCoordinating: Sendable {
    /// Runs `body` alongside other reads, never alongside a write.
    func read<Result>(_ body: () -> Result) -> Result
    /// Runs `body` alone.
    func write<Result>(_ body: () -> Result) -> Result
}

/// A coordinator that also takes writes without waiting for them.
public protocol EnqueuingReadWriteCoordinating: ReadWriteCoordinating {
    /// Submits `body` to run as a write after everything submitted before it; reads
    /// submitted after this returns observe it.
    func enqueueWrite(_ body: @escaping @Sendable () -> Void)
}

/// The real ``ReadWriteCoordinator`` as the scenarios see it.
public struct LiveReadWriteCoordinator: EnqueuingReadWriteCoordinating {
    /// The coordinator under test; `enqueueWrite` is reached through it.
    public let base = ReadWriteCoordinator()

    /// A fresh coordinator.
    public init() {}

    public func read<Result>(_ body: () -> Result) -> Result { base.read(body) }

    public func write<Result>(_ body: () -> Result) -> Result { base.write(body) }

    public func enqueueWrite(_ body: @escaping @Sendable () -> Void) { base.enqueueWrite(body) }
}

extension SeedReadWriteCoordinator: ReadWriteCoordinating {}

/// Scenarios for read/write coordination.
public enum ReadWriteScenarios {
    /// Shared state of the scenarios: who is inside, and the data. Readers run side by side,
    /// so their count is atomic; the rest changes only inside writes.
    final class Shared: @unchecked Sendable {
        let readers = SeamAtomic(0)
        var writers = 0
        var log: [Int] = []
    }

    /// Readers never overlap a writer, writers never overlap each other, and a read that
    /// starts after a write finished sees it.
    public static func exclusion<Coordinator: ReadWriteCoordinating>(
        _ coordinator: @escaping @Sendable () -> Coordinator
    ) -> @Sendable (Scenario) -> Void {
        { scenario in
            let coordinator = coordinator()
            let shared = Shared()
            for writer in 1...2 {
                scenario.spawn {
                    coordinator.write {
                        shared.writers += 1
                        let readers = shared.readers.load()
                        Harness.check(
                            readers == 0 && shared.writers == 1,
                            "a write overlaps \(readers) readers and \(shared.writers - 1) writers")
                        Seam.yield()
                        shared.log.append(writer)
                        shared.writers -= 1
                    }
                    let seen = coordinator.read { shared.log }
                    Harness.check(seen.contains(writer), "a read after write \(writer) does not see it: \(seen)")
                }
            }
            for _ in 1...2 {
                scenario.spawn {
                    coordinator.read {
                        shared.readers.add(1)
                        Harness.check(shared.writers == 0, "a read overlaps a write")
                        Seam.yield()
                        shared.readers.add(-1)
                    }
                }
            }
        }
    }

    /// Seed defect 15: a read nested in a write, and a read nested in a read while another
    /// thread waits to write, must not deadlock.
    public static func nestedReads<Coordinator: ReadWriteCoordinating>(
        _ coordinator: @escaping @Sendable () -> Coordinator
    ) -> @Sendable (Scenario) -> Void {
        { scenario in
            let coordinator = coordinator()
            let shared = Shared()
            scenario.spawn {
                coordinator.read {
                    Seam.yield()
                    coordinator.read { _ = shared.log }
                }
            }
            scenario.spawn {
                coordinator.write {
                    shared.log.append(1)
                    let seen = coordinator.read { shared.log }
                    Harness.check(seen == [1], "a read inside a write does not see it")
                }
            }
        }
    }
}

extension ReadWriteScenarios {
    /// Writes enqueued by one thread apply in submission order, and that thread's next
    /// read sees all of them, whatever another thread reads and writes meanwhile.
    @Sendable public static func enqueuedWritesInOrder(_ scenario: Scenario) {
        enqueuedWritesInOrder { LiveReadWriteCoordinator() }(scenario)
    }

    /// ``enqueuedWritesInOrder(_:)`` on the coordinators `coordinator` makes.
    public static func enqueuedWritesInOrder<Coordinator: EnqueuingReadWriteCoordinating>(
        _ coordinator: @escaping @Sendable () -> Coordinator
    ) -> @Sendable (Scenario) -> Void {
        { scenario in enqueuedWritesInOrder(coordinator(), scenario) }
    }

    private static func enqueuedWritesInOrder(_ coordinator: some EnqueuingReadWriteCoordinating, _ scenario: Scenario)
    {
        let shared = Shared()
        scenario.spawn {
            for value in 1...3 {
                coordinator.enqueueWrite { shared.log.append(value) }
            }
            let seen = coordinator.read { shared.log.filter { $0 < 10 } }
            Harness.check(seen == [1, 2, 3], "enqueued writes seen as \(seen)")
        }
        scenario.spawn {
            _ = coordinator.read { shared.log.count }
            coordinator.enqueueWrite { shared.log.append(10) }
        }
        scenario.joinAll()
        let final = coordinator.read { shared.log }
        Harness.check(final.sorted() == [1, 2, 3, 10], "writes lost or repeated: \(final)")
    }
}
