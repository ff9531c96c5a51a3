import Fixtures
import Harness
import Testing

@Suite("Generated scenarios: bad input gets a clear error")
struct LinearizabilityTestErrorTests {
    @Test("a generator that cannot produce a value is named, with the operation's place")
    func generatorWithoutValues() {
        let test = LinearizabilityTest(model: QueueModel<Int>()) { LockedQueue<Int>() }
            .operation(QueueOperation.enqueue, .element(of: [])) { queue, value in
                queue.enqueue(value)
                return .enqueued
            }
        #expect {
            _ = try test.run("no values", options: LinearizabilityOptions(seed: 1))
        } throws: { error in
            guard case .generator(let failure) = error as? LinearizabilityTestError else { return false }
            return failure.generator == "element(of: [])"
                && failure.operation == "LinearizabilityTestErrorTests.swift:10"
                && "\(error)".hasPrefix(
                    "the generator element(of: []) of the operation declared at LinearizabilityTestErrorTests.swift:10 "
                        + "cannot produce a value"
                )
        }
    }

    @Test("a test without operations, and async operations on threads, are refused")
    func shapeOfTheTest() {
        #expect(throws: LinearizabilityTestError.noOperations) {
            _ = try LinearizabilityTest(model: QueueModel<Int>()) { LockedQueue<Int>() }.run(
                "empty", options: LinearizabilityOptions())
        }
        #expect(throws: LinearizabilityTestError.asyncOperationsOnThreads) {
            _ = try accountTest(reentrant: false).clients(.threads).run(
                "actor on threads", options: LinearizabilityOptions())
        }
    }

    @Test(
        "every knob states its range and refuses values outside it, by name",
        arguments: [
            ("HARNESS_SCENARIOS", "0"), ("HARNESS_SCENARIOS", "1000001"), ("HARNESS_SCENARIOS", "many"),
            ("HARNESS_SCENARIO_SCHEDULES", "0"), ("HARNESS_SCENARIO_SCHEDULES", "-2"), ("HARNESS_STRATEGY", "bogus")
        ])
    func environment(variable: String, value: String) {
        #expect {
            _ = try LinearizabilityOptions().applyingEnvironment([variable: value])
        } throws: { error in
            "\(error)".hasPrefix("\(variable)='\(value)' is invalid: expected")
        }
    }

    @Test("the knobs set the count and the schedules per scenario; HARNESS_SCHEDULES is for hand-written explorations")
    func knobs() throws {
        let options = try LinearizabilityOptions().applyingEnvironment([
            "HARNESS_SCENARIOS": "12", "HARNESS_SCENARIO_SCHEDULES": "7", "HARNESS_SCHEDULES": "99",
            "HARNESS_SEED": "0x10",
            "HARNESS_STRATEGY": "pct:2", "HARNESS_ISOLATION": "process"
        ])
        #expect(options.scenarios == 12)
        #expect(options.exploration.schedules == 7)
        #expect(options.exploration.seed == 16)
        #expect(options.exploration.strategy == .pct(depth: 2))
        #expect(options.exploration.isolation == .none)
    }

    @Test("a shape set out of range in code is refused, naming the property")
    func shapeOutOfRange() {
        var options = LinearizabilityOptions()
        options.threads = 0...3
        #expect(
            throws: LinearizabilityTestError.configuration(
                .invalid(setting: "LinearizabilityOptions.threads", value: "0...3", expected: "a range within 1...16"))
        ) {
            _ = try QueueOperations.test { LockedQueue<Int>() }.run("bad shape", options: options)
        }
    }

    @Test("a token recorded for another test, or one whose shrink path no longer fits, is refused")
    func foreignTokens() throws {
        let test = QueueOperations.test { SplitDequeueQueue() }
        let found = try #require(try test.run("split dequeue", options: LinearizabilityOptions(seed: 1)).failure)
        #expect {
            _ = try test.run("another test", options: LinearizabilityOptions(replay: found.token))
        } throws: { error in
            guard case .configuration(.badReplayToken(_, .otherScenario)) = error as? LinearizabilityTestError else {
                return false
            }
            return true
        }
        // A token for the same scenario with one more shrink step, which the scenario there does not offer.
        let code = found.scenarioCode + "-999"
        let hash = String(fnv1a("split dequeue [scenario \(code)]"), radix: 16)
        let outdated = try ReplayToken(parsing: "H4.\(hash).portfolio.1.0.\(code).")
        #expect {
            _ = try test.run("split dequeue", options: LinearizabilityOptions(replay: outdated))
        } throws: { error in
            guard case .scenarioCodeOutdated(code, _, 999, _) = error as? LinearizabilityTestError else { return false }
            return "\(error)".contains("the test's operations or generators changed since it was recorded")
        }
    }

    /// The hash tokens name scenarios by (FNV-1a, 32 bits).
    private func fnv1a(_ text: String) -> UInt32 {
        text.utf8.reduce(UInt32(0x811C_9DC5)) { ($0 ^ UInt32($1)) &* 0x0100_0193 }
    }

    @Test("tokens of generated scenarios carry the scenario's code in a seventh field; other fields are unchanged")
    func tokenFormat() throws {
        let token = try ReplayToken(parsing: "H4.1a2b.portfolio.1.3.9f-0-12.")
        #expect(token.generatedScenario == "9f-0-12")
        #expect(token.description == "H4.1a2b.portfolio.1.3.9f-0-12.")
        #expect(try ReplayToken(parsing: "H4.1a2b.portfolio.1.3.").generatedScenario == nil)
        #expect(throws: ReplayTokenError.self) { _ = try ReplayToken(parsing: "H4.1a2b.portfolio.1.3.9f_0.") }
    }
}
