import Fixtures
import Harness
import Testing

@Suite("Fuzz: ConcurrencyLimiter")
struct ConcurrencyLimiterFuzz {
    @Test(
        "never more than N in flight; cancellation at any point neither breaks the bound nor leaks a slot",
        arguments: FuzzMatrix.cases)
    func boundUnderCancellation(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore(
            "limiter bound", strategy, seed,
            AsyncScenarios.limiterBoundUnderCancellation { LiveConcurrencyLimiter(concurrency: 2) })
    }

    @Test("admission is first in, first out", arguments: FuzzMatrix.cases)
    func fifo(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore(
            "limiter fifo", strategy, seed, AsyncScenarios.limiterIsFIFO { LiveConcurrencyLimiter(concurrency: 1) })
    }

    @Test("waiters never run without a slot when the owner lets go", arguments: FuzzMatrix.cases)
    func ownerReleased(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore(
            "limiter released", strategy, seed,
            AsyncScenarios.limiterReleasedWhileWaiting { LiveConcurrencyLimiter(concurrency: 1) })
    }
}

@Suite("Fuzz: AsyncCondition")
struct AsyncConditionFuzz {
    @Test("no lost wake-up under any order of signal, wait and cancel", arguments: FuzzMatrix.cases)
    func noLostWakeup(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("condition wake-ups", strategy, seed, AsyncScenarios.conditionReleasesEveryWaiter)
    }
}

@Suite("Fuzz: timeouts on virtual time")
struct VirtualTimeFuzz {
    @Test("a timed entry times out after exactly its timeout", arguments: FuzzMatrix.cases)
    func timeout(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("virtual timeout", strategy, seed, AsyncScenarios.timeoutOnVirtualTime)
    }
}

@Suite("Fuzz: dispatch helpers and primitives from tasks")
struct DispatchAndTasksFuzz {
    @Test("delayed dispatch runs in deadline order on virtual time", arguments: FuzzMatrix.cases)
    func dispatchDelays(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("dispatch delays", strategy, seed, AsyncScenarios.dispatchDelaysOnVirtualTime)
    }

    @Test("ReadWriteCoordinator and WorkerThread used from tasks", arguments: FuzzMatrix.cases)
    func fromTasks(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("primitives from tasks", strategy, seed, AsyncScenarios.coordinatorAndWorkerFromTasks)
    }
}
