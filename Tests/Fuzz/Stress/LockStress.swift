import Fixtures
import Harness
import Testing

@Suite("Stress: CriticalSection")
struct CriticalSectionStress {
    @Test("mutual exclusion and recursion")
    func exclusion() async {
        await Harness.stress(
            "critical section under stress", options: StressBudget.options, LockScenarios.criticalSectionExcludes)
    }

    @Test("a timed entry runs alone or gives up without running")
    func timedEntry() async {
        await Harness.stress(
            "critical section timed entry under stress", options: StressBudget.options,
            CriticalSectionStressTests.timedEntry)
    }
}

@Suite("Stress: ThreadLocalValue")
struct ThreadLocalValueStress {
    @Test("threads never see each other's values")
    func isolation() async {
        await Harness.stress(
            "thread-local isolation under stress", options: StressBudget.options, LockScenarios.threadLocalIsolation)
    }
}

@Suite("Stress: ReadWriteCoordinator")
struct ReadWriteCoordinatorStress {
    @Test("reads never see half a write")
    func snapshots() async {
        await Harness.stress(
            "rw snapshots under stress", options: StressBudget.options,
            ReadWriteStressTests.consistentSnapshots { LiveReadWriteCoordinator() })
    }

    @Test("reads never overlap writes; a read after a write sees it")
    func exclusion() async {
        await Harness.stress(
            "rw exclusion under stress", options: StressBudget.options,
            ReadWriteScenarios.exclusion { LiveReadWriteCoordinator() })
    }

    @Test("enqueued writes apply in submission order")
    func writeOrder() async {
        await Harness.stress(
            "rw write order under stress", options: StressBudget.options, ReadWriteScenarios.enqueuedWritesInOrder)
    }
}
