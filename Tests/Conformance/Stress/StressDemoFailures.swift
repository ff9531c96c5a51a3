import Harness
import Testing

/// Stress tests that fail on purpose, so that the replay commands they print can be run as
/// printed. A plain `swift test` skips them.
@Suite(.enabled(if: DemoGate.isOpen, "runs only in a child process of StressReplayCommandTests"))
struct StressDemoFailures {
    @Test func lostUpdateUnderStress() async {
        await Harness.stress(
            "demo lost increments",
            options: StressOptions(iterations: 20, timeBudget: nil),
            StressScenarios.alternatelyLostIncrements()
        )
    }

    @Test func lockedIncrementsUnderStress() async {
        await Harness.stress(
            "demo locked increments", options: StressOptions(iterations: 20, timeBudget: nil),
            StressScenarios.lockedIncrements)
    }
}
