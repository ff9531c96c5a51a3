import Foundation
import Harness
import Testing

/// The `.explored` trait, on the ordinary tests of ``ExploredDemos`` run in a child process as a
/// user runs them: each bug fails its test with one issue whose replay command reproduces it,
/// each fix passes all of its schedules, and tests with the trait run in parallel with each
/// other and with ordinary tests without one's issues reaching another.
@Suite("Harness: the .explored trait", .serialized)
struct ExploredTraitTests {
    private static let demo = [DemoGate.variable: "1"]

    /// The line Swift Testing ends a failed test with, e.g. `Test overdraft() failed after 0.6
    /// seconds with 1 issue.`, for the test named `test`; `nil` when it did not fail.
    private static func failureLine(of test: String, in output: String) -> Substring? {
        output.split(separator: "\n").first { $0.contains("Test \(test)() failed after") }
    }

    @Test(
        "a buggy test fails with one issue whose printed replay command reproduces it",
        arguments: [
            ("ExploredDemos", "overdraft", "await account.balance >= 0"),
            ("ExploredDemos", "lostUpdate", "await counter.hits == 2"),
            ("ExploredDemos", "fireAndForget", "await log.events == [\"saved\", \"shown\"]"),
            ("ExploredDemos", "mainActorTwoHops", "await screen.shown == 2"),
            ("ExploredReadmeDemos", "searchShowsTheLatestQuery", "await model.shown == \"results for swift\"")
        ])
    func bugFailsOnceAndReplays(suite: String, test: String, expectation: String) throws {
        let found = try TestProcess.run(["--filter", "\(suite)/\(test)\\("], environment: Self.demo)
        #expect(found.status != 0)
        let line = try #require(Self.failureLine(of: test, in: found.output), "\(found.output)")
        #expect(line.hasSuffix("with 1 issue."), "\(found.output)")
        #expect(found.output.contains("Expectation failed: \(expectation)"), "\(found.output)")
        let command = try #require(found.replayCommands.first, "no replay command in:\n\(found.output)")
        #expect(found.replayCommands == [command])
        let replayed = try TestProcess.shell(command, environment: Self.demo)
        #expect(replayed.status != 0)
        #expect(replayed.testsRun == 1, "\(replayed.output)")
        #expect(replayed.output.contains("Expectation failed: \(expectation)"), "\(replayed.output)")
        #expect(replayed.output.contains("reproduced exactly"), "\(replayed.output)")
        #expect(replayed.replayCommands == [command], "the replay failed otherwise:\n\(replayed.output)")
    }

    @Test("a task left waiting for good is named by the user's lines, where it waits and was started, no macro's")
    func lostWakeupNamesUserLines() throws {
        let found = try TestProcess.run(["--filter", "ExploredDemos/lostWakeup\\("], environment: Self.demo)
        #expect(found.status != 0)
        #expect(found.output.contains("deadlock: tasks wait for good"), "\(found.output)")
        // The waiter waits in `withCheckedContinuation` (line 49), started by the `async let`
        // (line 110); the test's own task, started by `@Test`'s expansion, names no place.
        #expect(
            found.output.contains(
                "waits at ExploredTraitDemos.swift:49 in ReadySignal.waitUntilReady() on a continuation, "
                    + "started in ExploredTraitDemos.swift:110"), "\(found.output)")
        #expect(!found.output.contains("@__swiftmacro_") && !found.output.contains("$s"), "\(found.output)")
    }

    @Test(
        "a reply after 5 ms and some work losing to a 10 ms timeout is found by every strategy at default options",
        arguments: HarnessStrategyTests.strategies
    )
    func replyRacingTimeoutAtDefaults(strategy: Strategy) throws {
        let environment = Self.demo.merging(["HARNESS_STRATEGY": "\(strategy)"]) { $1 }
        let found = try TestProcess.run(["--filter", "ExploredDemos/replyRacesTimeout\\("], environment: environment)
        #expect(found.status != 0)
        let line = try #require(Self.failureLine(of: "replyRacesTimeout", in: found.output), "\(found.output)")
        #expect(line.hasSuffix("with 1 issue."), "\(found.output)")
        #expect(found.output.contains("Expectation failed: (reply → \"timed out\") == \"reply\""), "\(found.output)")
    }

    @Test(
        "a fixed test, async or not, on the main actor or not, passes having run its whole budget",
        arguments: [
            ("ExploredDemos", "overdraftFixed", 500),
            ("ExploredDemos", "lostUpdateFixed", 500),
            ("ExploredDemos", "fireAndForgetFixed", 500),
            ("ExploredDemos", "replyRacesTimeoutFixed", 500),
            ("ExploredDemos", "mainActorTwoHopsFixed", 500),
            ("ExploredDemos", "synchronousBody", 50),
            ("ExploredReadmeDemos", "searchShowsTheLatestQueryFixed", 500),
            ("ExploredReadmeDemos", "mainActorBody", 100)
        ])
    func fixPassesEverySchedule(suite: String, test: String, schedules: Int) throws {
        let (outcome, entries) = try Self.campaign(filter: "\(suite)/\(test)\\(")
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(entries.map(\.scenario) == ["\(test)()"])
        #expect(entries.first?.schedules == schedules)
        #expect(entries.first?.failed == false)
    }

    @Test("tests with the trait run in parallel beside each other and ordinary tests; issues stay where raised")
    func parallelTestsKeepTheirIssues() throws {
        let (outcome, entries) = try Self.campaign(filter: "ExploredDemos/")
        #expect(outcome.status != 0)
        let failing = [
            "overdraft", "lostUpdate", "fireAndForget", "replyRacesTimeout", "mainActorTwoHops", "lostWakeup"
        ]
        for test in failing {
            let line = Self.failureLine(of: test, in: outcome.output)
            #expect(line?.hasSuffix("with 1 issue.") == true, "\(test): \(outcome.output)")
        }
        let passing = [
            "overdraftFixed", "lostUpdateFixed", "fireAndForgetFixed", "replyRacesTimeoutFixed",
            "mainActorTwoHopsFixed",
            "synchronousBody", "ordinaryBeside"
        ]
        for test in passing {
            #expect(outcome.output.contains("Test \(test)() passed after"), "\(test): \(outcome.output)")
        }
        #expect(outcome.replayCommands.count == failing.count, "\(outcome.output)")
        #expect(entries.filter(\.failed).map(\.scenario).sorted() == failing.map { "\($0)()" }.sorted())
        // Every test with the trait is summed up; the ordinary one is not.
        #expect(entries.count == failing.count + passing.count - 1)
    }

    @Test("on a suite, the trait explores each of its tests; a test's own trait applies instead of the suite's")
    func suiteTrait() throws {
        let (outcome, entries) = try Self.campaign(filter: "ExploredSuiteDemos/")
        #expect(outcome.status == 0, "\(outcome.output)")
        let schedules = Dictionary(uniqueKeysWithValues: entries.map { ($0.scenario, $0.schedules) })
        #expect(schedules == ["first()": 20, "second()": 20, "third()": 7])
    }

    @Test("HARNESS_ISOLATION=none is an error naming it: a test with the trait always runs in a child process")
    func isolationNoneIsAnError() throws {
        let outcome = try TestProcess.run(
            ["--filter", "ExploredDemos/overdraftFixed\\("],
            environment: Self.demo.merging(["HARNESS_ISOLATION": "none"]) { $1 }
        )
        #expect(outcome.status != 0)
        #expect(outcome.output.contains("HARNESS_ISOLATION='none' is invalid"), "\(outcome.output)")
    }

    /// A child run of the tests `filter` selects, and its campaign summary.
    private static func campaign(filter: String) throws -> (TestProcess.Outcome, [CampaignEntry]) {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("harness-explored-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let environment = demo.merging(["HARNESS_REPORT": file.path]) { $1 }
        let outcome = try TestProcess.run(["--filter", filter], environment: environment)
        return (outcome, try JSONDecoder().decode([CampaignEntry].self, from: Data(contentsOf: file)))
    }
}
