import CShim
import Foundation
import Harness
import Testing

/// The replay command a failure prints, run as a user runs it: pasted into a shell.
@Suite("Harness: printed replay commands", .serialized)
struct ReplayCommandTests {
    private static let demo = [DemoGate.variable: "1"]

    @Test(
        "each printed command runs exactly the failing test, which fails the same way",
        arguments: [
            "plainExplore", "parameterizedExplore", "isolatedExplore", "runReturnsReport"
        ])
    func replayCommandReplays(test: String) throws {
        let found = try TestProcess.run(["--filter", "DemoFailures/\(test)"], environment: Self.demo)
        #expect(found.status != 0)
        let command = try #require(found.replayCommands.first, "no replay command in:\n\(found.output)")
        let replayed = try TestProcess.shell(command, environment: Self.demo)
        #expect(replayed.status != 0)
        #expect(replayed.testsRun == 1, "\(replayed.output)")
        #expect(replayed.output.contains("an increment was lost"))
        #expect(replayed.replayCommands == [command], "the replay failed otherwise:\n\(replayed.output)")
    }

    @Test("a generated scenario's printed command regenerates the scenario and replays its schedule")
    func generatedScenarioReplays() throws {
        let found = try TestProcess.run(["--filter", "DemoFailures/generatedScenarios"], environment: Self.demo)
        #expect(found.status != 0)
        let command = try #require(found.replayCommands.first, "no replay command in:\n\(found.output)")
        let token = try ReplayToken(parsing: String(command.split(separator: "'")[1]))
        #expect(token.generatedScenario != nil)
        let replayed = try TestProcess.shell(command, environment: Self.demo)
        #expect(replayed.status != 0)
        #expect(replayed.testsRun == 1, "\(replayed.output)")
        #expect(replayed.output.contains("reproduced from its token"), "\(replayed.output)")
        #expect(replayed.output.contains("which was enqueued only once"), "\(replayed.output)")
        #expect(replayed.replayCommands == [command], "the replay failed otherwise:\n\(replayed.output)")
    }

    @Test("generated scenarios print progress lines while they explore and while they shrink")
    func generatedScenarioProgress() throws {
        let found = try TestProcess.run(
            ["--filter", "DemoFailures/generatedScenarios"],
            environment: Self.demo.merging(["HARNESS_PROGRESS": "0.000001"]) { $1 }
        )
        let lines = found.output.split(separator: "\n").filter {
            $0.hasPrefix("harness: demo generated queue [seed 1] [portfolio seed 0x1]")
        }
        #expect(
            lines.contains { $0.contains(" 1/10 scenarios, ") && $0.hasSuffix("/s, 1 failures") }, "\(found.output)")
        #expect(lines.contains { $0.contains(" shrinking: ") && $0.contains("candidates explored") }, "\(found.output)")
    }

    @Test(
        "a token that fits no scenario of the run fails it, in process and isolated",
        arguments: ["plainExplore", "isolatedExplore", "runReturnsReport"])
    func tokenThatFitsNothing(test: String) throws {
        let found = try TestProcess.run(["--filter", "DemoFailures/\(test)"], environment: Self.demo)
        let command = try #require(found.replayCommands.first)
        // Flip one character of the scenario hash, the field after the format version.
        let hashStart = try #require(command.range(of: "H\(ReplayToken.formatVersion).")).upperBound
        let flipped = command[hashStart] == "0" ? "1" : "0"
        let corrupted = command.replacingCharacters(in: hashStart...hashStart, with: flipped)
        let replayed = try TestProcess.shell(corrupted, environment: Self.demo)
        #expect(replayed.status != 0)
        #expect(replayed.output.contains("fits none of the 1 scenarios this run explored"), "\(replayed.output)")
    }

    @Test("under HARNESS_SEED=random a case is named by the seed it ran, and its command replays it")
    func randomSeedNames() throws {
        let found = try TestProcess.run(
            ["--filter", "DemoFailures/parameterizedExplore"],
            environment: Self.demo.merging(["HARNESS_SEED": "random"]) { $1 }
        )
        let command = try #require(found.replayCommands.first)
        let token = try ReplayToken(parsing: String(command.split(separator: "'")[1]))
        #expect(found.output.contains("scenario: demo lost update [seed \(token.seed)]"), "\(found.output)")
        #expect(found.replayCommands.count == 1)
        let replayed = try TestProcess.shell(command, environment: Self.demo)
        #expect(replayed.replayCommands == [command], "\(replayed.output)")
    }

    @Test("an isolated child that hangs where no stall detection reaches is killed and reported")
    func hangingChildIsKilled() throws {
        let outcome = try TestProcess.run(
            ["--filter", "DemoFailures/childHangsBeforeExploring"],
            environment: Self.demo.merging(["HARNESS_STALL_TIMEOUT": "0.01"]) { $1 }
        )
        #expect(outcome.status != 0)
        #expect(
            outcome.output.contains("showed no progress for \(0.01 + Harness.childGraceSeconds) s"), "\(outcome.output)"
        )
    }

    @Test("an isolated child ends when the test's process is killed")
    func childDiesWithParent() throws {
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        parent.arguments = ["--testing-library", "swift-testing", "--filter", "DemoFailures/childBlocksForever"]
        parent.environment = ProcessInfo.processInfo.environment.merging(
            Self.demo.merging(["HARNESS_KEEP_FAILURES": "0"]) { $1 }
        ) { $1 }
        let output = Pipe()
        parent.standardError = output
        parent.standardOutput = FileHandle.nullDevice
        try parent.run()
        var text = ""
        var child: pid_t?
        while child == nil, case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
            text += String(decoding: chunk, as: UTF8.self)
            child = Self.announcedChild(in: text)
        }
        kill(parent.processIdentifier, SIGKILL)
        parent.waitUntilExit()
        let pid = try #require(child, "the child never announced itself:\n\(text)")
        let ended = cshim_wait_for_process_exit(pid, 10_000)
        if ended != 1 { kill(pid, SIGKILL) }
        #expect(ended == 1, "the isolated child outlived its parent")
    }

    @Test("a failure is kept beside the test and replayed first by the next run; CI keeps nothing")
    func keptFailures() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("harness-kept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = Self.demo.merging(["HARNESS_KEEP_FAILURES": folder.path]) { $1 }
        let first = try TestProcess.run(["--filter", "DemoFailures/keptFailure"], environment: environment)
        let command = try #require(first.replayCommands.first)
        let kept = try String(contentsOf: folder.appendingPathComponent("DemoFailures.txt"), encoding: .utf8)
        let token = String(command.split(separator: "'")[1])
        #expect(kept.contains("fails demo kept failure \(token)\n"))
        #expect(first.output.contains("kept in \(folder.path)/DemoFailures.txt"))

        let second = try TestProcess.run(["--filter", "DemoFailures/keptFailure"], environment: environment)
        #expect(
            second.output.contains("kept failure 1 of 1 from \(folder.path)/DemoFailures.txt fails again"),
            "\(second.output)")
        #expect(second.replayCommands == [command])

        let besideTest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            ".harness-regressions")
        let onCI = try TestProcess.run(
            ["--filter", "DemoFailures/keptFailure"],
            environment: Self.demo.merging(["CI": "true", "HARNESS_KEEP_FAILURES": ""]) { $1 }
        )
        #expect(onCI.status != 0)
        #expect(!FileManager.default.fileExists(atPath: besideTest.path))
    }

    @Test("after the fix, the printed command and the kept failure both pass, saying the failure no longer happens")
    func afterTheFix() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("harness-kept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keeping = Self.demo.merging(["HARNESS_KEEP_FAILURES": folder.path]) { $1 }
        let found = try TestProcess.run(["--filter", "DemoFailures/keptFailure"], environment: keeping)
        let command = try #require(found.replayCommands.first, "\(found.output)")
        let fixed = [DemoGate.fixedVariable: "1"]

        let replayed = try TestProcess.shell(command, environment: Self.demo.merging(fixed) { $1 })
        #expect(replayed.status == 0, "\(replayed.output)")
        #expect(replayed.testsRun == 1)
        #expect(replayed.output.contains("the recorded failure no longer happens: the code followed the token for "))
        #expect(replayed.replayCommands.isEmpty)

        let kept = try TestProcess.run(
            ["--filter", "DemoFailures/keptFailure"], environment: keeping.merging(fixed) { $1 })
        #expect(kept.status == 0, "\(kept.output)")
        let file = folder.appendingPathComponent("DemoFailures.txt").path
        #expect(
            kept.output.contains(
                "kept failure 1 of 1 from \(file): the recorded failure no longer happens: "
                    + "the code followed the token for "
            ))
        #expect(kept.replayCommands.isEmpty)
    }

    @Test("a kept failure in an older token format is named in a warning, not skipped in silence")
    func outdatedKeptFailure() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("harness-kept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let report = try Harness.run(
            "demo kept failure", options: ExplorationOptions(schedules: 500, seed: 7), HarnessScenarios.lostUpdate)
        let current = try #require(report.failure?.token.description)
        let older = "H1" + current.drop { $0 != "." }
        try "fails demo kept failure \(older)\n".write(
            to: folder.appendingPathComponent("DemoFailures.txt"), atomically: true, encoding: .utf8)

        let run = try TestProcess.run(
            ["--filter", "DemoFailures/keptFailure"],
            environment: Self.demo.merging(["HARNESS_KEEP_FAILURES": folder.path]) { $1 }
        )
        #expect(
            run.output.contains(
                "keeps 1 failing schedule(s) of this scenario in a token format this harness does not read"),
            "\(run.output)")
        #expect(run.replayCommands.count == 1, "the exploration still runs and finds the failure again")
    }

    @Test(
        "a kept-failures file that cannot be read fails the run, naming the file and the line",
        arguments: [
            ("garbage\n", "line 1, cannot be read: expected 'fails SCENARIO TOKEN', found 'garbage'"),
            ("fails demo kept failure H4.3dc2af31.random.7\n", "line 1, cannot be read: its token cannot be read"),
            (
                "# kept\nfails demo kept failure OTHER\n",
                "line 2, cannot be read: its token was recorded for another scenario than 'demo kept failure'"
            )
        ])
    func corruptKeptFailures(text: String, expected: String) throws {
        let other = try Harness.run(
            "another test", options: ExplorationOptions(schedules: 500, seed: 7), HarnessScenarios.lostUpdate)
        let text = text.replacingOccurrences(of: "OTHER", with: try #require(other.failure?.token.description))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("harness-kept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("DemoFailures.txt")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let run = try TestProcess.run(
            ["--filter", "DemoFailures/keptFailure"],
            environment: Self.demo.merging(["HARNESS_KEEP_FAILURES": folder.path]) { $1 }
        )
        #expect(run.status != 0)
        #expect(run.output.contains("the kept failures in \(file.path), \(expected)"), "\(run.output)")
        #expect(run.replayCommands.isEmpty, "nothing is explored past a damaged guard")
        #expect(try String(contentsOf: file, encoding: .utf8) == text, "the file is left as it was")
    }

    @Test("a kept-failures file that is not text fails the run and is not overwritten")
    func keptFailuresNotText() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("harness-kept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("DemoFailures.txt")
        let bytes = Data([0x66, 0x61, 0xFF, 0xFE, 0x0A])
        try bytes.write(to: file)
        let run = try TestProcess.run(
            ["--filter", "DemoFailures/keptFailure"],
            environment: Self.demo.merging(["HARNESS_KEEP_FAILURES": folder.path]) { $1 }
        )
        #expect(run.status != 0)
        #expect(
            run.output.contains("the kept failures in \(file.path) cannot be read: it is not UTF-8 text"),
            "\(run.output)")
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test("a summary path that cannot be written fails the run before it explores, naming HARNESS_REPORT")
    func unwritableReport() throws {
        let path = "/nonexistent-\(UUID().uuidString)/summary.json"
        let outcome = try TestProcess.run(
            ["--filter", "DemoCampaign/"], environment: Self.demo.merging(["HARNESS_REPORT": path]) { $1 })
        #expect(outcome.status != 0)
        #expect(
            outcome.output.contains("HARNESS_REPORT='\(path)' is invalid: expected a file this process can write"),
            "\(outcome.output)")
        #expect(!outcome.output.contains("harness campaign: "), "nothing was explored")
    }

    @Test("shards of a campaign, of scenarios or of schedules, add up to the unsharded run's summary")
    func shardsAddUp() throws {
        func campaign(shard: String?) throws -> [CampaignEntry] {
            var environment = Self.demo
            environment["HARNESS_SHARD"] = shard
            return try Self.campaign(filter: "DemoCampaign/", environment: environment)
        }
        let whole = try campaign(shard: nil)
        let first = try campaign(shard: "1/2")
        let second = try campaign(shard: "2/2")
        #expect(whole.count == 13)
        #expect(!first.isEmpty && !second.isEmpty)
        #expect(Self.counts(first + second) == Self.counts(whole))
        #expect(Set(first.map(\.scenario)).isDisjoint(with: second.map(\.scenario)))

        // Split by schedules: the random explorations run in both shards, their schedules
        // adding up; the others go whole to one.
        let shards = try ["1/2:schedules", "2/2:schedules"].map { try campaign(shard: $0) }
        func schedules(_ entries: [CampaignEntry]) -> [String: Int] {
            entries.reduce(into: [:]) { $0["\($1.scenario) \($1.strategy)", default: 0] += $1.schedules }
        }
        #expect(schedules(shards[0] + shards[1]) == schedules(whole))
        let split = Set(shards[0].map(\.scenario)).intersection(shards[1].map(\.scenario))
        #expect(split == Set(whole.filter { $0.strategy == "random" }.map(\.scenario)))
    }

    /// The limiter's tasks free atomic cells during each execution (their addresses once came
    /// back as other cells' from one process to the next); the generated worker scenarios
    /// drop the last reference to a worker on a thread that is ending (its release once raced
    /// with the next thread).
    @Test("the same seed explores the same way in every process: five runs of two fuzz cases count alike")
    func sameSeedSameCounts() throws {
        let runs = try (0..<5).map { _ in
            try Self.campaign(
                filter: "ConcurrencyLimiterFuzz/boundUnderCancellation|GeneratedFuzz/workerThread",
                environment: ["HARNESS_SEED": "7", "HARNESS_SCENARIOS": "4"]
            )
        }
        #expect(runs[0].count == 3)
        for run in runs.dropFirst() {
            #expect(Self.counts(run) == Self.counts(runs[0]))
        }
    }

    /// The summary of running the tests `filter` matches in a child process with
    /// `environment`, which must pass.
    private static func campaign(filter: String, environment: [String: String]) throws -> [CampaignEntry] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("harness-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let reporting = environment.merging(["HARNESS_REPORT": file.path]) { $1 }
        let outcome = try TestProcess.run(["--filter", filter], environment: reporting)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("harness campaign: "))
        return try JSONDecoder().decode([CampaignEntry].self, from: Data(contentsOf: file))
    }

    /// Everything a summary says of each exploration but its speed, one line an exploration,
    /// in a fixed order.
    private static func counts(_ entries: [CampaignEntry]) -> [String] {
        entries.map { entry in
            let bound = entry.pctMissBound.map { "\($0)" } ?? "-"
            return "\(entry.scenario) \(entry.strategy) \(entry.seed) \(entry.schedules) "
                + "\(entry.distinctInterleavings) \(entry.growing) \(bound) \(entry.failed)"
        }.sorted()
    }

    @Test(
        "a malformed shard is an error naming HARNESS_SHARD",
        arguments: ["0/2", "3/2", "1/0", "2", "a/b", "1/1001", "1/2:scenario", "1/2:"])
    func badShard(value: String) throws {
        let outcome = try TestProcess.run(
            ["--filter", "DemoCampaign/"], environment: Self.demo.merging(["HARNESS_SHARD": value]) { $1 })
        #expect(outcome.status != 0)
        #expect(outcome.output.contains("HARNESS_SHARD='\(value)' is invalid"))
    }

    /// The process ID a line of `text` announces, once the line is complete.
    private static func announcedChild(in text: String) -> pid_t? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if let range = line.range(of: DemoFailures.childAnnouncement) {
                return pid_t(line[range.upperBound...])
            }
        }
        return nil
    }
}
