import Foundation
import Harness
import Testing

@Suite("Knobs: one table of every HARNESS_ variable")
struct KnobTests {
    @Test("the README's tables of variables are the knob table's, row for row")
    func readmeMatchesTheTable() throws {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        for table in [Knob.markdownTable(Knob.exploring), Knob.markdownTable(Knob.stressOnly)] {
            #expect(text.contains(table), "README.md lacks this table, as the knob table renders it:\n\(table)")
        }
        let named = Set(text.matches(of: /`(HARNESS_[A-Z_]+)`/).map { String($0.output.1) })
        #expect(named.isSubset(of: Knob.all.map(\.name)), "README.md names variables the harness does not read")
    }

    @Test(
        "a misspelled variable is an error naming the nearest knob, in every front door's options",
        arguments: [
            ("HARNESS_SCHEDULE", "HARNESS_SCHEDULES"), ("HARNESS_STRATEGIE", "HARNESS_STRATEGY"),
            ("HARNESS_STRESS_ITERATION", "HARNESS_STRESS_ITERATIONS"), ("HARNESS_SEEDS", "HARNESS_SEED")
        ])
    func misspelled(name: String, nearest: String) {
        let expected = HarnessConfigurationError.unknownVariable(name: name, nearest: nearest)
        #expect(throws: expected) { _ = try ExplorationOptions().applyingEnvironment([name: "5"]) }
        #expect(throws: expected) { _ = try StressOptions().applyingEnvironment([name: "5"]) }
        #expect(throws: expected) { _ = try LinearizabilityOptions().applyingEnvironment([name: "5"]) }
        #expect("\(expected)".hasPrefix("\(name) is not a variable the harness reads: did you mean \(nearest)?"))
    }

    @Test(
        "HARNESS_WORKERS sets the workers of every exploration, and a bad value is an error naming it",
        arguments: ["0", "65", "two", "1.5"])
    func workers(bad: String) throws {
        #expect(try ExplorationOptions().applyingEnvironment(["HARNESS_WORKERS": "2"]).workers == 2)
        #expect(try LinearizabilityOptions().applyingEnvironment(["HARNESS_WORKERS": "3"]).exploration.workers == 3)
        let error = HarnessConfigurationError.invalid(
            setting: "HARNESS_WORKERS", value: bad, expected: "a whole number from 1 to 64")
        #expect(throws: error) { _ = try ExplorationOptions().applyingEnvironment(["HARNESS_WORKERS": bad]) }
    }

    @Test("a variable far from every knob is named without a guess")
    func unknownWithoutGuess() {
        #expect(throws: HarnessConfigurationError.unknownVariable(name: "HARNESS_COLOUR", nearest: nil)) {
            _ = try ExplorationOptions().applyingEnvironment(["HARNESS_COLOUR": "blue"])
        }
    }

    @Test("an empty value is unset, for every knob")
    func emptyIsUnset() throws {
        let empty = Dictionary(uniqueKeysWithValues: Knob.all.map { ($0.name, "") })
        let options = ExplorationOptions(strategy: .pct(depth: 2), schedules: 17, seed: 5)
        let applied = try options.applyingEnvironment(empty)
        #expect(
            applied.strategy == options.strategy && applied.schedules == 17 && applied.seed == 5
                && applied.replay == nil)
        let stress = try StressOptions(iterations: 3).applyingEnvironment(empty)
        #expect(stress.iterations == 3)
        #expect(try LinearizabilityOptions(scenarios: 4).applyingEnvironment(empty).scenarios == 4)
    }

    @Test("generated scenarios do not read the knobs only hand-written explorations read")
    func generatedScenariosReadTheirOwn() throws {
        let options = try LinearizabilityOptions(scenarios: 4).applyingEnvironment([
            "HARNESS_SCHEDULES": "9", "HARNESS_ISOLATION": "process"
        ])
        #expect(options.exploration.isolation == .none)
        #expect(options.exploration.schedules != 9)
        #expect(Knob.schedules.readBy == [.explore] && Knob.isolation.readBy == [.explore])
    }
}
