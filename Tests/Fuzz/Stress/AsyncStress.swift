import Fixtures
import Harness
import Testing

@Suite("Stress: ConcurrencyLimiter")
struct ConcurrencyLimiterStress {
    @Test("never more bodies at once than slots")
    func bound() async {
        await Harness.stress(
            "limiter bound under stress", options: StressBudget.options,
            AsyncStressTests.limiterBound { LiveConcurrencyLimiter(concurrency: 2) })
    }

    @Test("cancellation at any point neither breaks the bound nor leaks a slot")
    func boundUnderCancellation() async {
        await Harness.stress(
            "limiter cancellation under stress",
            options: StressBudget.options,
            AsyncScenarios.limiterBoundUnderCancellation { LiveConcurrencyLimiter(concurrency: 2) }
        )
    }
}

@Suite("Stress: AsyncCondition")
struct AsyncConditionStress {
    @Test("no lost wake-up under any order of signal, wait and cancel")
    func noLostWakeup() async {
        await Harness.stress(
            "condition wake-ups under stress", options: StressBudget.options,
            AsyncScenarios.conditionReleasesEveryWaiter)
    }

    @Test("ReadWriteCoordinator and WorkerThread used from tasks")
    func primitivesFromTasks() async {
        await Harness.stress(
            "primitives from tasks under stress", options: StressBudget.options,
            AsyncScenarios.coordinatorAndWorkerFromTasks)
    }
}

@Suite("Stress: Dispatch helpers and AsyncFileStream")
struct DispatchStress {
    @Test("no block of a paused queue runs")
    func pausedQueue() async {
        await Harness.stress(
            "paused queue under stress", options: StressBudget.options, DispatchStressTests.pausedQueue)
    }

    @Test("a GCD barrier runs alone")
    func barrier() async {
        await Harness.stress(
            "gcd barrier under stress", options: StressBudget.options, DispatchStressTests.barrierRunsAlone)
    }

    @Test("concurrent file round trips read back what they wrote")
    func fileRoundTrips() async {
        await Harness.stress(
            "file round trips under stress", options: StressBudget.options, FileStreamStressTests.roundTrips)
    }
}
