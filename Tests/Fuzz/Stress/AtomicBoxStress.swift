import Fixtures
import Harness
import Testing

@Suite("Stress: AtomicBox")
struct AtomicBoxStress {
    @Test("racing updates lose nothing")
    func racingUpdates() async {
        await Harness.stress(
            "atomic box updates under stress", options: StressBudget.options,
            AtomicBoxStressTests.racingUpdates { LiveAtomicBox() })
    }

    @Test("exactly one of two compare-and-exchanges wins")
    func compareExchange() async {
        await Harness.stress(
            "atomic box compare-exchange under stress", options: StressBudget.options,
            AtomicBoxStressTests.compareExchangeRace)
    }
}

@Suite("Stress: linearizability on real threads")
struct LinearizabilityStress {
    @Test("a queue kept in an AtomicBox is linearizable in every iteration")
    func boxedQueue() async {
        await Harness.stress(
            "boxed queue linearizability under stress", options: StressBudget.options,
            LinearizabilityStressTests.boxedQueue)
    }
}
