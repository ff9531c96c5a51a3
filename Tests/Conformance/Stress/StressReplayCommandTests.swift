import Harness
import Testing

/// A stress failure's replay command, run as a user runs it: pasted into a shell.
@Suite("Stress: printed replay commands and knobs, in child test processes", .serialized)
struct StressReplayCommandTests {
    private static let demo = [DemoGate.variable: "1"]

    @Test("a stress failure prints its histogram and a command that replays the escalated schedule under the harness")
    func replayCommandReplays() throws {
        let filter = "StressDemoFailures/lostUpdateUnderStress"
        let found = try TestProcess.run(["--filter", filter], environment: Self.demo)
        #expect(found.status != 0)
        let histogram = [
            "  count  class        outcome  meaning",
            "     10  forbidden    1        an increment was lost",
            "     10  acceptable   2        both increments counted"
        ]
        #expect(histogram.allSatisfy(found.output.contains), "\(found.output)")
        let command = try #require(found.replayCommands.first, "no replay command in:\n\(found.output)")
        let replayed = try TestProcess.shell(command, environment: Self.demo)
        #expect(replayed.status != 0)
        #expect(replayed.testsRun == 1, "\(replayed.output)")
        #expect(replayed.output.contains("the scenario returned the forbidden outcome "))
        #expect(replayed.output.contains("reproduced exactly"), "\(replayed.output)")
        #expect(replayed.replayCommands == [command], "the replay failed otherwise:\n\(replayed.output)")
    }

    @Test(
        "a knob out of range fails the stress test with an error naming the knob and its range",
        arguments: [
            ("HARNESS_STRESS_ITERATIONS", "0", "a whole number from 1 to 1000000000"),
            ("HARNESS_STRESS_SECONDS", "-1", "a number of seconds from 0.001 to 86400.0"),
            ("HARNESS_STRESS_THREADS", "0", "a whole number from 1 to 256")
        ])
    func knobOutOfRange(variable: String, value: String, expected: String) throws {
        var environment = Self.demo
        environment[variable] = value
        let outcome = try TestProcess.run(
            ["--filter", "StressDemoFailures/lockedIncrementsUnderStress"], environment: environment)
        #expect(outcome.status != 0)
        #expect(outcome.output.contains("\(variable)='\(value)' is invalid: expected \(expected)"), "\(outcome.output)")
    }
}
