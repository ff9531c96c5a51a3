import CShim
import Foundation
import Testing

extension Harness {
    /// The environment variable that makes a process the child of an isolated exploration:
    /// it holds the one scenario the child explores (others are skipped).
    static let childScenarioVariable = Knob.ChildProcess.scenario

    /// The environment variables that tell the child which exploration to serve, and how:
    /// the test case that started it (a parameterized test explores the same scenario in each
    /// case), and the parent's options, as JSON. The child runs the whole test again and
    /// serves the first exploration of the scenario in that case with the parent's options:
    /// so it serves an exploration whose options the test computed from an earlier one (a
    /// replay of the token it found) without running the earlier one.
    static let childCaseVariable = Knob.ChildProcess.testCase
    static let childOptionsVariable = Knob.ChildProcess.options

    /// The Swift runtime's switch for hashing with a fixed seed instead of one drawn per
    /// process; set in every isolated child.
    static let deterministicHashingVariable = "SWIFT_DETERMINISTIC_HASHING"
    /// The environment variable naming the file the child records its running schedule in
    /// (``ScheduleRecord``), which the parent reads once the child has ended.
    static let childRecordVariable = Knob.ChildProcess.record

    /// Names the running test case the same way in the parent and in the child: its
    /// arguments (their values and Swift Testing's IDs), without the addresses a
    /// description may hold.
    static var currentCaseKey: String {
        guard let testCase = Test.Case.current, testCase.isParameterized else { return "" }
        let description = String(describing: testCase)
        let addresses = /(\$|0x)[0-9a-fA-F]+/
        return String(ReplayToken.hash(description.replacing(addresses, with: "")), radix: 16)
    }

    /// The parent's options when this process is an isolated child that serves the
    /// exploration of `scenario` in the running test case.
    static func servedOptions(_ scenario: String, environment: EnvironmentSnapshot) -> ExplorationOptions? {
        let environment = environment.variables
        guard environment[childScenarioVariable] == scenario,
            environment[childCaseVariable] == currentCaseKey,
            let json = environment[childOptionsVariable]
        else { return nil }
        do {
            return try JSONDecoder().decode(ExplorationOptions.self, from: Data(json.utf8))
        } catch {
            preconditionFailure("the isolated child could not read its parent's options: \(error)")
        }
    }

    /// How long past the stall timeout an isolated child may show no progress before the
    /// test's process kills it: enough to start the process and write a stall report.
    public static let childGraceSeconds = 15.0

    /// Runs the current test again in a child process that explores only `scenario`, and
    /// returns the report the child sends back (a crash included).
    static func exploreInChild(_ scenario: String, options: ExplorationOptions, testID: String) throws(HarnessError)
        -> ExplorationReport
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--filter", HarnessFailure.testFilter(testID), "--testing-library", "swift-testing"]
        // The child inherits the whole environment, the variables the harness reads included.
        var environment = ProcessInfo.processInfo.environment
        environment[childScenarioVariable] = scenario
        environment[childCaseVariable] = currentCaseKey
        do {
            environment[childOptionsVariable] = String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
        } catch {
            throw .isolatedChildFailed(scenario: scenario, ending: .optionsNotEncoded(error: "\(error)"))
        }
        let recordFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("harness-child-\(UUID()).record").path
        environment[childRecordVariable] = recordFile
        defer { try? FileManager.default.removeItem(atPath: recordFile) }
        environment[HarnessEnvironment.inheritedRandomSeedVariable] = String(HarnessEnvironment.randomSeed, radix: 16)
        // The scenario's own `Set`s and `Dictionary`s (a striped map indexed by `hashValue`)
        // iterate in an order seeded per process unless this is set: with it, the child runs
        // the same schedules, and counts the same interleavings, as every other child.
        environment[deterministicHashingVariable] = "1"
        if cshim_sanitizer() != CSHIM_SANITIZER_NONE {
            // Swift's crash backtracer forks a helper from the crashing child; under TSan the
            // fork fails an internal check (the child exits 66), under ASan the helper hangs:
            // either way the child would not die by its signal. The cause then has the
            // runtime's message without frames.
            environment["SWIFT_BACKTRACE"] = "enable=no"
        }
        if cshim_sanitizer() == CSHIM_SANITIZER_THREAD {
            // The child leaves with _exit once it has sent its report, skipping the exit
            // handler in which ThreadSanitizer turns its reports into exit status 66: stop it
            // at its first report instead, so a race found while exploring fails the test.
            environment["TSAN_OPTIONS"] = (environment["TSAN_OPTIONS"].map { $0 + " " } ?? "") + "halt_on_error=1"
        }
        process.environment = environment
        // The child reads its standard input until it ends, which is when this process
        // ends: it then ends too.
        let lifeline = Pipe()
        let errors = Pipe()
        process.standardInput = lifeline
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let start = ContinuousClock.now
        do {
            try process.run()
        } catch {
            throw .isolatedChildFailed(scenario: scenario, ending: .notStarted(error: "\(error)"))
        }
        let timeout = options.stallTimeout.seconds + childGraceSeconds
        let transcript = ChildTranscript.read(errors.fileHandleForReading, killing: process, afterSilence: timeout)
        process.waitUntilExit()
        try? lifeline.fileHandleForWriting.close()
        if let report = transcript.report {
            return report
        }
        let lastSchedule = ScheduleRecord.lastSchedule(inFile: recordFile)
        let ending = ChildExit(
            reason: process.terminationReason,
            status: process.terminationStatus,
            timedOut: transcript.timedOut,
            crashToken: transcript.crashToken,
            lastSchedule: lastSchedule
        )
        func failure(_ reason: ExecutionFailure, _ token: ReplayToken) -> ExplorationReport {
            .childFailure(scenario, reason: reason, token: token, options: options, testID: testID, start: start)
        }
        func childFailed(_ ending: IsolatedChildEnding) -> HarnessError {
            .isolatedChildFailed(scenario: scenario, ending: ending)
        }
        let tail = transcript.tail
        switch ending {
        case let .crashedInSchedule(signal, token):
            return failure(.crashed(signal: signal, cause: transcript.crashCause), token)
        case let .killedInSchedule(signal, token):
            return failure(.killed(signal: signal), token)
        case .timedOut:
            throw childFailed(.silent(seconds: timeout, lastSchedule: lastSchedule, tail: tail))
        case .crashedOutsideScenario(let signal):
            throw childFailed(.crashed(signal: signal, lastSchedule: lastSchedule, cause: transcript.crashCause))
        case .killedBeforeSchedule(let signal):
            throw childFailed(.killed(signal: signal, tail: tail))
        case .exited(let status):
            throw childFailed(.exited(status: status, tail: tail))
        }
    }
}

extension ExplorationReport {
    /// The report of an isolated exploration begun at `start` whose child ended with `reason`
    /// while it ran the schedule of `token`.
    fileprivate static func childFailure(
        _ scenario: String,
        reason: ExecutionFailure,
        token: ReplayToken,
        options: ExplorationOptions,
        testID: String,
        start: ContinuousClock.Instant
    ) -> ExplorationReport {
        let failure = HarnessFailure(
            scenario: scenario,
            reason: reason,
            token: token,
            trace: token.steps.map { step in
                TraceStep(thread: step.thread, kind: step.kind, target: nil, choice: step.choice, location: nil)
            },
            testID: testID
        )
        return ExplorationReport(
            scenario: scenario,
            strategy: options.strategy,
            seed: token.seed,
            schedulesRun: options.shard?.scheduleCount(budget: token.execution + 1) ?? token.execution + 1,
            exhausted: false,
            failure: failure,
            notReproduced: nil,
            lastSchedule: token,
            elapsed: ContinuousClock.now - start,
            coverage: CoverageCounter(budget: options.schedules).summary,
            workers: 1
        )
    }

    /// The report of an exploration an isolated child leaves out: the child serves another
    /// exploration of the same test, and ends once it has.
    static func notExplored(_ scenario: String, options: ExplorationOptions) -> ExplorationReport {
        ExplorationReport(
            scenario: scenario,
            strategy: options.strategy,
            seed: options.seed ?? 0,
            schedulesRun: 0,
            exhausted: false,
            failure: nil,
            notReproduced: nil,
            lastSchedule: nil,
            elapsed: .zero,
            coverage: CoverageCounter(budget: options.schedules).summary,
            workers: 1
        )
    }
}
