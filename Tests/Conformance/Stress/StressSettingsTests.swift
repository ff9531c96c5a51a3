import Harness
import Testing

@Suite("Stress: settings out of range are refused by name")
struct StressSettingsTests {
    @Test(
        "every stress variable states its range and refuses values outside it",
        arguments: [
            ("HARNESS_STRESS_ITERATIONS", "0"), ("HARNESS_STRESS_ITERATIONS", "-1"),
            ("HARNESS_STRESS_ITERATIONS", "ten"),
            ("HARNESS_STRESS_ITERATIONS", "99999999999999999999"), ("HARNESS_STRESS_ITERATIONS", "1.5"),
            ("HARNESS_STRESS_SECONDS", "-1"), ("HARNESS_STRESS_SECONDS", "0"), ("HARNESS_STRESS_SECONDS", "1s"),
            ("HARNESS_STRESS_SECONDS", "inf"), ("HARNESS_STRESS_SECONDS", "nan"), ("HARNESS_STRESS_SECONDS", "1e9"),
            ("HARNESS_STRESS_SCALE", "0"), ("HARNESS_STRESS_SCALE", "-2"),
            ("HARNESS_STRESS_SCALE", "x"), ("HARNESS_STRESS_THREADS", "0"), ("HARNESS_STRESS_THREADS", "-1"),
            ("HARNESS_STRESS_THREADS", "257"), ("HARNESS_STRESS_THREADS", "two"), ("HARNESS_STRESS_HANG_TIMEOUT", "0"),
            ("HARNESS_STRESS_HANG_TIMEOUT", "soon"), ("HARNESS_STRESS_PROGRESS", "0"),
            ("HARNESS_STRESS_PROGRESS", "-1"),
            ("HARNESS_ESCALATION_SCHEDULES", "-1"), ("HARNESS_ESCALATION_SCHEDULES", "many")
        ])
    func outOfRange(variable: String, value: String) {
        #expect {
            _ = try StressOptions().applyingEnvironment([variable: value])
        } throws: { error in
            "\(error)".hasPrefix("\(variable)='\(value)' is invalid: expected ")
        }
    }

    @Test("zero iterations, a negative budget and zero threads: each error names the knob and its range")
    func exactErrors() {
        #expect(
            throws: HarnessConfigurationError.invalid(
                setting: "HARNESS_STRESS_ITERATIONS",
                value: "0",
                expected: "a whole number from 1 to 1000000000"
            )
        ) {
            _ = try StressOptions().applyingEnvironment(["HARNESS_STRESS_ITERATIONS": "0"])
        }
        #expect(
            throws: HarnessConfigurationError.invalid(
                setting: "HARNESS_STRESS_SECONDS",
                value: "-5",
                expected: "a number of seconds from 0.001 to 86400.0"
            )
        ) {
            _ = try StressOptions().applyingEnvironment(["HARNESS_STRESS_SECONDS": "-5"])
        }
        #expect(
            throws: HarnessConfigurationError.invalid(
                setting: "HARNESS_STRESS_THREADS", value: "0", expected: "a whole number from 1 to 256")
        ) {
            _ = try StressOptions().applyingEnvironment(["HARNESS_STRESS_THREADS": "0"])
        }
    }

    @Test("options set out of range in code are refused by Harness.runStress, naming the property")
    func codeOutOfRange() async {
        var options = StressOptions()
        options.iterations = 0
        await #expect(
            throws: HarnessError.configuration(
                .invalid(setting: "StressOptions.iterations", value: "0", expected: "1 to 1000000000"))
        ) {
            _ = try await Harness.runStress("out of range", options: options, StressScenarios.lockedIncrements)
        }
        options = StressOptions()
        options.threads = 0
        await #expect(
            throws: HarnessError.configuration(
                .invalid(setting: "StressOptions.threads", value: "0", expected: "1 to 256"))
        ) {
            _ = try await Harness.runStress("out of range", options: options, StressScenarios.lockedIncrements)
        }
        options = StressOptions()
        options.escalation?.strategies = []
        await #expect(
            throws: HarnessError.configuration(
                .invalid(setting: "EscalationOptions.strategies.count", value: "0", expected: "1 to 64"))
        ) {
            _ = try await Harness.runStress("out of range", options: options, StressScenarios.lockedIncrements)
        }
    }

    @Test("options out of range trap at initialization, naming them")
    func initializerTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = StressOptions(iterations: 0)
        }
        await #expect(processExitsWith: .failure) {
            _ = StressOptions(threads: 0)
        }
    }

    @Test("the scale multiplies the iterations and the time budget; zero escalation schedules turn escalation off")
    func scaleAndEscalation() throws {
        let scaled = try StressOptions(iterations: 10, timeBudget: .seconds(2)).applyingEnvironment([
            "HARNESS_STRESS_SCALE": "2.5"
        ])
        #expect(scaled.iterations == 25)
        #expect(scaled.timeBudget == .seconds(5))
        let explicit = try StressOptions().applyingEnvironment([
            "HARNESS_STRESS_ITERATIONS": "7", "HARNESS_STRESS_SECONDS": "0.5", "HARNESS_STRESS_THREADS": "256",
            "HARNESS_STRESS_HANG_TIMEOUT": "3", "HARNESS_STRESS_PROGRESS": "86400", "HARNESS_ESCALATION_SCHEDULES": "42"
        ])
        #expect(explicit.iterations == 7)
        #expect(explicit.timeBudget == .milliseconds(500))
        #expect(explicit.threads == 256)
        #expect(explicit.hangTimeout == .seconds(3))
        #expect(explicit.progressInterval == 86_400)
        #expect(explicit.escalation?.schedules == 42)
        #expect(try StressOptions().applyingEnvironment(["HARNESS_ESCALATION_SCHEDULES": "0"]).escalation == nil)
    }
}
