import Harness
import Primitives
import Synchronization
import Testing

/// `HarnessMutex`'s contract on real threads (no controller) and under a harness.
@Suite("HarnessMutex: the Synchronization.Mutex drop-in")
struct HarnessMutexTests {
    static let threads = 4
    static let increments = 20_000

    @Test(
        "withLock excludes: concurrent increments on real threads lose nothing",
        .disabled(
            if: BuildConfiguration.sanitizer == .thread,
            "in production HarnessMutex is a Synchronization.Mutex, on which TSan reports false races under contention"
        )
    )
    func excludesOnRealThreads() throws {
        let mutex = HarnessMutex(0)
        let threads = try (0..<Self.threads).map { _ in
            try Seam.spawnThread {
                for _ in 0..<Self.increments { mutex.withLock { $0 += 1 } }
            }.get()
        }
        for thread in threads { try thread.join() }
        #expect(mutex.withLock { $0 } == Self.threads * Self.increments)
    }

    @Test("withLock returns the body's result and rethrows its typed error")
    func resultAndError() {
        struct Refused: Error, Equatable {}
        let mutex = HarnessMutex([1, 2])
        #expect(mutex.withLock { $0.count } == 2)
        #expect(throws: Refused()) { try mutex.withLock { (_: inout [Int]) throws(Refused) in throw Refused() } }
        #expect(mutex.withLock { $0.count } == 2, "the lock is released after a throw")
    }

    @Test("withLockIfAvailable runs the body when free and returns nil while another thread holds the lock")
    func ifAvailable() throws {
        let mutex = HarnessMutex(0)
        #expect(
            mutex.withLockIfAvailable {
                $0 += 1; return $0
            } == 1)
        let held = SeamAtomic(false)
        let release = SeamAtomic(false)
        let holder = try Seam.spawnThread {
            mutex.withLock { _ in
                held.store(true)
                while !release.load() { Seam.yield() }
            }
        }.get()
        while !held.load() { Seam.yield() }
        #expect(mutex.withLockIfAvailable { $0 } == nil)
        release.store(true)
        try holder.join()
        #expect(mutex.withLockIfAvailable { $0 } == 1)
    }

    @Test("a non-copyable value goes in and comes out")
    func noncopyableValue() {
        struct Token: ~Copyable { var uses = 0 }
        let mutex = HarnessMutex(Token())
        mutex.withLock { $0.uses += 1 }
        #expect(mutex.withLock { $0.uses } == 1)
    }

    @Test("code written against Synchronization.Mutex compiles against the drop-in through a type alias")
    func typeAliasSwitch() {
        #expect(AliasedCounter().incremented() == 1)
    }

    @Test("under a harness, increments under withLock are never lost")
    func harnessExcludes() throws {
        let report = try Harness.run(
            "HarnessMutex increments", options: ExplorationOptions(schedules: 300, seed: 2, keepsFailures: false)
        ) { scenario in
            let mutex = HarnessMutex(0)
            for _ in 0..<3 {
                scenario.spawn { for _ in 0..<3 { mutex.withLock { $0 += 1 } } }
            }
            scenario.joinAll()
            let total = mutex.withLock { $0 }
            Harness.check(total == 9, "the counter is \(total), not 9")
        }
        #expect(report.failure == nil)
    }

    @Test("under a harness, two drop-in mutexes taken in opposite orders deadlock, and the report says so")
    func harnessDeadlock() throws {
        let report = try Harness.run(
            "HarnessMutex lock order", options: ExplorationOptions(schedules: 500, seed: 2, keepsFailures: false)
        ) { scenario in
            let first = HarnessMutex(0)
            let second = HarnessMutex(0)
            scenario.spawn { first.withLock { _ in second.withLock { _ in } } }
            scenario.spawn { second.withLock { _ in first.withLock { _ in } } }
        }
        let failure = try #require(report.failure)
        #expect("\(failure.reason)".contains("deadlock"), "\(failure.reason)")
    }
}

/// Code as a user writes it, against `Mutex`; a type alias picks the drop-in.
private typealias Mutex = Primitives.HarnessMutex

private final class AliasedCounter: Sendable {
    private let count = Mutex(0)
    func incremented() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
}
