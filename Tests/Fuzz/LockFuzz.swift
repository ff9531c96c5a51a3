import Fixtures
import Harness
import Testing

@Suite("Fuzz: ReadWriteCoordinator")
struct ReadWriteCoordinatorFuzz {
    @Test("reads never overlap writes; a read after a write sees it", arguments: FuzzMatrix.cases)
    func exclusion(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("rw exclusion", strategy, seed, ReadWriteScenarios.exclusion { LiveReadWriteCoordinator() })
    }

    @Test("nested reads do not deadlock", arguments: FuzzMatrix.cases)
    func nestedReads(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore(
            "rw nested reads", strategy, seed, ReadWriteScenarios.nestedReads { LiveReadWriteCoordinator() })
    }

    @Test("enqueued writes apply in submission order", arguments: FuzzMatrix.cases)
    func writeOrder(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("rw write order", strategy, seed, ReadWriteScenarios.enqueuedWritesInOrder)
    }
}

@Suite("Fuzz: CriticalSection")
struct CriticalSectionFuzz {
    @Test("mutual exclusion and recursion", arguments: FuzzMatrix.cases)
    func exclusion(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("critical section", strategy, seed, LockScenarios.criticalSectionExcludes)
    }

    @Test("timed entries time out without running", arguments: FuzzMatrix.cases)
    func timeout(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("critical section timeout", strategy, seed, LockScenarios.criticalSectionTimeout)
    }
}

@Suite("Fuzz: ThreadLocalValue")
struct ThreadLocalValueFuzz {
    @Test("threads never see each other's values", arguments: FuzzMatrix.cases)
    func isolation(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("thread-local isolation", strategy, seed, LockScenarios.threadLocalIsolation)
    }
}
