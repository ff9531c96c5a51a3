import Foundation
import Synchronization
import Harness
import Primitives
import Testing

@Suite("Harness: settings out of range are refused by name")
struct HarnessSettingsTests {
    /// Values that once crashed, hung or passed validation and then failed.
    @Test(
        "every numeric variable states its range and refuses values outside it",
        arguments: [
            ("HARNESS_PROGRESS", "inf"), ("HARNESS_PROGRESS", "1e300"), ("HARNESS_PROGRESS", "nan"),
            ("HARNESS_PROGRESS", "-1"),
            ("HARNESS_PROGRESS", "0"), ("HARNESS_MAX_STEPS", "9223372036854775807"),
            ("HARNESS_MAX_STEPS", "1000000000000"),
            ("HARNESS_MAX_STEPS", "0"), ("HARNESS_MAX_STEPS", "-5"), ("HARNESS_SCHEDULES", "0"),
            ("HARNESS_SCHEDULES", "-1"),
            ("HARNESS_SCHEDULES", "99999999999999999999"), ("HARNESS_STRATEGY", "pct:1000000000"),
            ("HARNESS_STRATEGY", "pct:0"),
            ("HARNESS_STRATEGY", "pct:x"), ("HARNESS_STRATEGY", "exhaustive:-1"), ("HARNESS_STRATEGY", "random:3"),
            ("HARNESS_STRATEGY", "bogus"), ("HARNESS_STALL_TIMEOUT", "inf"), ("HARNESS_STALL_TIMEOUT", "0"),
            ("HARNESS_STALL_TIMEOUT", "-3"), ("HARNESS_STALL_TIMEOUT", "nan"), ("HARNESS_STALL_TIMEOUT", "1e9"),
            ("HARNESS_SEED", "-1"),
            ("HARNESS_SEED", "18446744073709551616"), ("HARNESS_SEED", "0xZZ"), ("HARNESS_ISOLATION", "thread"),
            ("HARNESS_REPLAY", "H1.nope")
        ])
    func outOfRange(variable: String, value: String) {
        #expect {
            _ = try ExplorationOptions().applyingEnvironment([variable: value])
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(variable)
                && (text.contains("='\(value)' is invalid: expected") || text.contains("malformed"))
        }
    }

    @Test("a summary file that cannot be written is refused by name: a missing folder, a folder")
    func unwritableReport() {
        let folder = FileManager.default.temporaryDirectory.path
        let missing = "/nonexistent-folder-of-the-harness/x.json"
        #expect(
            throws: HarnessConfigurationError.invalid(
                setting: "HARNESS_REPORT",
                value: missing,
                expected: "a file this process can write (its folder /nonexistent-folder-of-the-harness does not exist)"
            )
        ) {
            _ = try ExplorationOptions().applyingEnvironment(["HARNESS_REPORT": missing])
        }
        #expect(
            throws: HarnessConfigurationError.invalid(
                setting: "HARNESS_REPORT",
                value: folder,
                expected: "a file this process can write (it is a folder)"
            )
        ) {
            _ = try ExplorationOptions().applyingEnvironment(["HARNESS_REPORT": folder])
        }
        #expect(throws: Never.self) {
            _ = try ExplorationOptions().applyingEnvironment(["HARNESS_REPORT": folder + "/harness-summary.json"])
        }
    }

    @Test("a strategy's parameter error says which parameter and its range")
    func strategyParameter() {
        #expect(
            throws: HarnessConfigurationError.invalid(
                setting: "HARNESS_STRATEGY",
                value: "pct:1000000000",
                expected: "pct:DEPTH with DEPTH a whole number from 1 to 16, not '1000000000'"
            )
        ) {
            _ = try ExplorationOptions().applyingEnvironment(["HARNESS_STRATEGY": "pct:1000000000"])
        }
    }

    @Test("the largest values in range are accepted and run")
    func largestValues() throws {
        let options = try ExplorationOptions(schedules: 1).applyingEnvironment([
            "HARNESS_MAX_STEPS": "1000000", "HARNESS_PROGRESS": "86400", "HARNESS_STALL_TIMEOUT": "86400",
            "HARNESS_STRATEGY": "pct:16", "HARNESS_SEED": "18446744073709551615"
        ])
        let report = try Harness.run("largest values", options: options, HarnessScenarios.lockedIncrements)
        #expect(report.failure == nil)
        #expect(report.seed == .max)
    }

    @Test("an option set out of range in code is refused by Harness.run, naming the property")
    func codeOutOfRange() {
        var options = ExplorationOptions()
        options.maxSteps = .max
        #expect(
            throws: HarnessError.configuration(
                .invalid(setting: "ExplorationOptions.maxSteps", value: "\(Int.max)", expected: "1 to 1000000"))
        ) {
            _ = try Harness.run("out of range", options: options, HarnessScenarios.lostUpdate)
        }
        options = ExplorationOptions()
        options.progressInterval = .infinity
        #expect(throws: HarnessError.self) {
            _ = try Harness.run("out of range", options: options, HarnessScenarios.lostUpdate)
        }
    }

    @Test("an option out of range traps at initialization, naming it")
    func initializerTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = ExplorationOptions(maxSteps: 0)
        }
    }
}

@Suite("Harness: crashes under isolation come back as failures")
struct HarnessIsolatedCrashTests {
    @Test(
        "Harness.run returns a crash with the runtime's message, the user's frames and the token",
        arguments: [ScenarioThreads.os, .coroutines])
    func runReportsCrash(threads: ScenarioThreads) throws {
        let options = ExplorationOptions(schedules: 500, seed: 9, isolation: .process, threads: threads)
        let report = try Harness.run("run isolated crash", options: options) { scenario in
            let value = SeamAtomic(0)
            scenario.spawn { value.store(1) }
            scenario.spawn { precondition(value.load() == 0, "the other thread ran first") }
        }
        let failure = try #require(report.failure)
        guard case .crashed(_, let cause) = failure.reason else {
            Issue.record("expected a crash, got \(failure.reason)")
            return
        }
        #expect(cause.contains("Precondition failed: the other thread ran first"))
        #expect(
            BuildConfiguration.sanitizer != nil
                || cause.contains("HarnessIsolatedCrashTests.runReportsCrash(threads:)"),
            "frames come from the crash backtracer, off under a sanitizer")
        #expect(!cause.contains("Sources/Harness"))
        #expect(failure.token.fits(scenario: "run isolated crash"))
        #expect(failure.trace.count == failure.token.stepCount)
    }

    @Test(
        "a stack overflow in an isolated child comes back as a crash with its token",
        .overflowsTheStackOfAChild,
        arguments: [ScenarioThreads.os, .coroutines]
    )
    func stackOverflow(threads: ScenarioThreads) throws {
        let options = ExplorationOptions(schedules: 5, seed: 3, isolation: .process, threads: threads)
        let report = try Harness.run("isolated stack overflow", options: options) { scenario in
            let value = SeamAtomic(0)
            scenario.spawn {
                value.store(1)
                _ = StackOverflow.recurse(value.load())
            }
        }
        let failure = try #require(report.failure)
        guard case .crashed(let signal, _) = failure.reason else {
            Issue.record("expected a crash, got \(failure.reason)")
            return
        }
        #expect(signal == SIGSEGV)
        #expect(failure.token.fits(scenario: "isolated stack overflow"))
        #expect(failure.token.execution == 0)
        #expect(failure.token.stepCount > 0)
    }

    @Test("a child killed from outside while it runs a schedule comes back as killed, with the schedule's token")
    func killedFromOutside() throws {
        let options = ExplorationOptions(schedules: 5, seed: 3, isolation: .process)
        let report = try Harness.run("isolated child killed", options: options) { scenario in
            let value = SeamAtomic(0)
            scenario.spawn {
                value.store(1)
                if value.load() == 1 { kill(getpid(), SIGKILL) }
            }
        }
        let failure = try #require(report.failure)
        #expect(failure.reason == .killed(signal: SIGKILL))
        #expect("\(failure.reason)".contains("killed (signal 9) from outside"))
        #expect(failure.token.fits(scenario: "isolated child killed"))
        #expect(failure.token.execution == 0)
        #expect(failure.token.stepCount > 0)
    }

    @Test("a continuation resumed twice is reported with the runtime's misuse message")
    func continuationMisuse() throws {
        let options = ExplorationOptions(schedules: 50, seed: 1, isolation: .process)
        let report = try Harness.run("double resume", options: options) { scenario in
            scenario.task {
                let _: Int = await withCheckedContinuation { continuation in
                    continuation.resume(returning: 1)
                    continuation.resume(returning: 2)
                }
            }
        }
        let failure = try #require(report.failure)
        #expect("\(failure.reason)".contains("SWIFT TASK CONTINUATION MISUSE"), "\(failure.reason)")
    }

    @Test("an ordinary failure in an isolated child comes back whole, lanes and locations included")
    func ordinaryFailureComesBack() throws {
        let options = ExplorationOptions(schedules: 500, seed: 7)
        var isolated = options
        isolated.isolation = .process
        let inProcess = try #require(
            try Harness.run("lost update", options: options, HarnessScenarios.lostUpdate).failure)
        let fromChild = try #require(
            try Harness.run("lost update", options: isolated, HarnessScenarios.lostUpdate).failure)
        #expect(fromChild.trace == inProcess.trace)
        #expect(fromChild.token == inProcess.token)
        #expect(fromChild.reason == inProcess.reason)
    }
}

@Suite("Harness: a stall says where the thread blocked and what to use instead")
struct HarnessStallTests {
    static let options = ExplorationOptions(schedules: 1, stallTimeout: .milliseconds(500), isolation: .process)

    @Test(
        "a seam operation inside a Synchronization.Mutex section names the mutex and where the thread started",
        .readsTheStackOfAThreadBlockedOutsideTSan)
    func mutexStall() throws {
        // On OS threads: a `Synchronization.Mutex` records its owner by the OS thread's ID, so
        // on coroutines the wait would first send the execution to OS threads
        // (`ThreadIdentityWatchTests.mutexHeldAcrossAPoint`).
        var options = Self.options
        options.threads = .os
        let spawnLine = #line + 4
        let report = try Harness.run("stall in a mutex", options: options) { scenario in
            let cache = Synchronization.Mutex(0)
            cache.withLock { _ in
                let other = scenario.spawn { cache.withLock { $0 += 1 } }
                other.join()
            }
        }
        let failure = try #require(report.failure)
        guard case .stalled(let thread, _, let diagnosis) = failure.reason else {
            Issue.record("expected a stall, got \(failure.reason)")
            return
        }
        #expect(thread == 1)
        #expect(diagnosis.blockedIn?.blocker == .synchronizationMutex, "\(diagnosis)")
        #expect(
            "\(diagnosis)".contains("a Synchronization.Mutex, which the harness does not control; use SeamMutex"),
            "\(diagnosis)")
        #expect("\(diagnosis)".contains("it was started at HarnessSettingsTests.swift:\(spawnLine)"), "\(diagnosis)")
    }

    @Test("a real sleep is named as one, with the virtual-time alternative")
    func sleepStall() throws {
        let report = try Harness.run("stall in a sleep", options: Self.options) { _ in
            Thread.sleep(forTimeInterval: 60)
        }
        let failure = try #require(report.failure)
        #expect(
            "\(failure.reason)".contains("a real sleep; use Seam.sleep, or Task.sleep on SeamClock"),
            "\(failure.reason)")
    }

    @Test("a thread spinning outside the seam is reported as busy, once it has used the timeout's CPU time")
    func busyStall() throws {
        let report = try Harness.run("stall in a spin", options: Self.options) { _ in
            let released = Synchronization.Atomic(false)
            while !released.load(ordering: .relaxed) {}
        }
        let failure = try #require(report.failure)
        guard case .stalled(_, let seconds, let diagnosis) = failure.reason else {
            Issue.record("expected a stall, got \(failure.reason)")
            return
        }
        #expect(seconds >= 0.5)
        #expect(diagnosis.activity == .busy && "\(diagnosis)".hasPrefix("busy outside the seam"), "\(diagnosis)")
        #expect("\(diagnosis)".contains("an endless loop, or a spin on state the harness does not see"), "\(diagnosis)")
    }
}
