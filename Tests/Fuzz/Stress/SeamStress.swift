import Fixtures
import Harness
import Testing

@Suite("Stress: the seam's operations on real threads")
struct SeamStress {
    @Test("message passing through atomics never shows the flag before the data")
    func messagePassing() async {
        await Harness.stress(
            "seam message passing under stress", options: StressBudget.options, SeamStressTests.messagePassing)
    }

    @Test("a SeamMutex loses no increment")
    func mutexCounter() async {
        await Harness.stress(
            "seam mutex counter under stress", options: StressBudget.options, SeamStressTests.mutexCounter)
    }
}
