import Fixtures
import Harness
import Primitives
import Testing

/// Generated scenarios for every primitive with a sequential meaning: each case generates
/// scenarios of the primitive's operations, explores each under its strategy, and checks
/// every execution's history against the primitive's model.
@Suite("Fuzz: generated scenarios, linearizable against a model")
struct GeneratedFuzz {
    @Test("the README's queue", arguments: FuzzMatrix.generatedCases)
    func queue(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.check("generated queue", strategy, seed, QueueOperations.test { LockedQueue<Int>() })
    }

    @Test("AtomicBox: load, store, update, compareExchange, take", arguments: FuzzMatrix.generatedCases)
    func atomicBox(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.check("generated atomic box", strategy, seed, AtomicBoxOperations.test { LiveOptionalIntBox() })
    }

    @Test("ReadWriteCoordinator as a guarded map: read, write, enqueueWrite", arguments: FuzzMatrix.generatedCases)
    func readWriteCoordinator(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.check("generated rw map", strategy, seed, ReadWriteOperations.test { LiveReadWriteCoordinator() })
    }

    @Test("WorkerThread: submit, sync, stop", arguments: FuzzMatrix.generatedCases)
    func workerThread(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.check("generated worker", strategy, seed, WorkerOperations.test())
    }

    @Test("CriticalSection: a guarded counter, nested and timed entries, holds", arguments: FuzzMatrix.generatedCases)
    func criticalSection(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.check("generated critical section", strategy, seed, CriticalSectionOperations.test())
    }

    @Test("ConcurrencyLimiter: admission in order, within the bound", arguments: FuzzMatrix.generatedCases)
    func limiter(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.check(
            "generated limiter", strategy, seed,
            LimiterOperations.test(limit: 1) { LiveConcurrencyLimiter(concurrency: 1) })
    }

    @Test("AsyncCondition/AsyncSignal: signal, isSignalled, timed waits", arguments: FuzzMatrix.generatedCases)
    func condition(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.check("generated condition", strategy, seed, ConditionOperations.test())
    }
}
