import CShim
import Foundation
import Harness
import Primitives
import Testing

@Suite("Harness: what counts as a failure")
struct HarnessFailureKindTests {
    private func failure(
        _ name: String,
        _ options: ExplorationOptions = ExplorationOptions(schedules: 200, seed: 11),
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) throws -> HarnessFailure {
        try #require(try Harness.run(name, options: options, body).failure)
    }

    @Test("an endless loop exceeds the step bound")
    func stepBound() throws {
        let spin: @Sendable (Scenario) -> Void = { _ in
            let flag = SeamAtomic(false)
            while !flag.load() { Seam.yield() }
        }
        let failure = try failure("spin", ExplorationOptions(schedules: 1, maxSteps: 500), spin)
        #expect(failure.reason == .stepBoundExceeded(500))
        #expect(
            failure.token.description.count < 200,
            "a spinning schedule's token is \(failure.token.description.count) characters")
        let token = try ReplayToken(parsing: failure.token.description)
        let replayed = try Harness.run("spin", options: ExplorationOptions(maxSteps: 500, replay: token), spin)
        #expect(replayed.failure?.trace == failure.trace)
    }

    @Test("an error thrown by a thread fails the execution and names the thread")
    func thrownError() throws {
        struct Broken: Error {}
        let failure = try failure("throws") { scenario in
            scenario.spawn { throw Broken() }
        }
        guard case .threadThrew(let thread, let error) = failure.reason else {
            Issue.record("expected a thrown error, got \(failure.reason)")
            return
        }
        #expect(thread == 1)
        #expect(error.contains("Broken"))
    }

    @Test("a thread that cannot finish after the body returned is reported with what it waits for")
    func threadsStillRunning() throws {
        let leaked = UncheckedBox<SeamThread?>(nil)
        let failure = try failure("leaked thread", ExplorationOptions(schedules: 1)) { _ in
            let mutex = SeamMutex()
            let condition = SeamCondition()
            leaked.value = try Seam.spawnThread { mutex.withLock { condition.wait(on: mutex) } }.get()
        }
        try leaked.value?.join()  // the harness ended it when the execution failed
        guard case .threadsStillRunning(let waits) = failure.reason else {
            Issue.record("expected threads still running, got \(failure.reason)")
            return
        }
        #expect(waits.count == 1)
        #expect(
            waits[0].threadWait?.thread == 1
                && waits[0].threadWait?.reason == .signal(condition: SharedObject(.condition, 1)))
    }

    @Test("unlocking a mutex the thread does not hold is reported, not a crash")
    func misuse() throws {
        let failure = try failure("misuse", ExplorationOptions(schedules: 1)) { _ in
            SeamMutex().unlock()
        }
        #expect("\(failure.reason)".contains("which it does not hold"))
    }

    /// A waiter that checks its flag with `if`, not `while`: correct only without spurious
    /// wake-ups.
    @Sendable static func predicateFreeWait(_ scenario: Scenario) {
        let mutex = SeamMutex()
        let condition = SeamCondition()
        let ready = UncheckedBox(false)
        scenario.spawn {
            mutex.withLock {
                if !ready.value { condition.wait(on: mutex) }
                Harness.check(ready.value, "woke before the flag was set")
            }
        }
        scenario.spawn {
            Seam.yield()
            mutex.withLock { ready.value = true }
            condition.signal()
        }
    }

    @Test("a predicate-free condition wait is caught through spurious wake-ups")
    func spuriousWakeups() throws {
        let failure = try failure("spurious", ExplorationOptions(schedules: 2_000, seed: 5), Self.predicateFreeWait)
        #expect("\(failure.reason)".contains("woke before the flag was set"))
        #expect(failure.trace.contains { $0.kind == .spuriousWake })
    }

    @Test("without spurious wake-ups the same scenario passes")
    func noSpuriousWakeups() throws {
        let options = ExplorationOptions(schedules: 500, seed: 5, spuriousWakeups: false)
        let report = try Harness.run("no spurious", options: options, Self.predicateFreeWait)
        #expect(report.failure == nil)
    }
}

@Suite("Harness: virtual time")
struct HarnessVirtualTimeTests {
    @Test("an hour of sleeping takes no wall time, and sleepers wake in deadline order")
    func sleepsAreInstant() throws {
        let wall = ContinuousClock.now
        let report = try Harness.run("sleepers", options: ExplorationOptions(schedules: 50, seed: 2)) { scenario in
            let order = UncheckedBox<[Int]>([])
            let mutex = SeamMutex()
            let start = Seam.now()
            for (index, minutes) in [60, 20, 40].enumerated() {
                scenario.spawn {
                    Seam.sleep(for: .seconds(minutes * 60))
                    mutex.withLock { order.value.append(index) }
                }
            }
            scenario.joinAll()
            Harness.check(order.value == [1, 2, 0], "woke in the order \(order.value)")
            Harness.check(Seam.now() >= start.advanced(by: .seconds(3600)), "the clock did not reach an hour")
        }
        #expect(report.failure == nil)
        #expect(ContinuousClock.now - wall < .seconds(60))
    }

    @Test("a condition wait whose deadline was reached is a try: its predicate holds if another thread set it first")
    func dueConditionWait() throws {
        let outcomes = try exploredOutcomes("due condition wait") { scenario in
            let mutex = SeamMutex()
            let condition = SeamCondition()
            let flag = SeamAtomic(false)
            scenario.spawn {
                mutex.withLock { flag.store(true) }
                condition.signal()
            }
            let begin = Seam.now()
            let held = mutex.withLock { condition.wait(on: mutex, until: { flag.load() }, deadline: begin) }
            Harness.check(Seam.now() == begin, "a due wait moved the clock")
            scenario.joinAll()
            return held
        }
        #expect(outcomes == [true, false])
    }

    @Test("a sleep whose deadline was reached returns at once, a scheduling point where another thread may go first")
    func dueSleep() throws {
        let outcomes = try exploredOutcomes("due sleep") { scenario in
            let flag = SeamAtomic(false)
            let begin = Seam.now()
            Seam.sleep(for: .seconds(1))
            scenario.spawn { flag.store(true) }
            let afterSleeping = Seam.now()
            Seam.sleep(for: .zero)
            let seen = flag.load()
            Seam.sleep(until: begin)
            Harness.check(Seam.now() == afterSleeping, "a due sleep moved the clock")
            scenario.joinAll()
            return seen
        }
        #expect(outcomes == [true, false])
    }

    @Test("a timed condition wait times out at its deadline when nobody signals")
    func timedWait() throws {
        let report = try Harness.run("timed wait", options: ExplorationOptions(schedules: 20)) { _ in
            let mutex = SeamMutex()
            let condition = SeamCondition()
            let deadline = Seam.now().advanced(by: .seconds(5))
            let result = mutex.withLock { condition.wait(on: mutex, deadline: deadline) }
            Harness.check(result == .timedOut, "the wait ended with \(result)")
            Harness.check(Seam.now() == deadline, "the clock is \(Seam.now()), not the deadline")
        }
        #expect(report.failure == nil)
    }
}

@Suite("Harness: replay tokens")
struct ReplayTokenTests {
    @Test("a token survives its text form")
    func roundTrip() throws {
        let failure = try #require(
            try Harness.run(
                "lost update", options: ExplorationOptions(schedules: 500, seed: 7), HarnessScenarios.lostUpdate
            ).failure)
        let parsed = try ReplayToken(parsing: " \(failure.token)\n")
        #expect(parsed == failure.token)
        #expect(parsed.fits(scenario: "lost update"))
    }

    @Test(
        "a malformed token gets an error that says what is wrong",
        arguments: [
            ("", "expected 6 fields"),
            ("X1.0.random.0.0.AAA", "starts with 'H'"),
            ("H9.0.random.0.0.AAAA", "format H9 is not supported"),
            ("H1.0.random.0.0.AAAA", "H1 is not supported; this harness reads H\(ReplayToken.formatVersion): record"),
            ("H\(ReplayToken.formatVersion).zz.random.0.0.AAAA", "scenario field 'zz' is not hexadecimal"),
            ("H\(ReplayToken.formatVersion).0.random.xyz.0.AAAA", "seed field 'xyz'"),
            ("H\(ReplayToken.formatVersion).0.random.0.-1.AAAA", "execution field '-1'"),
            ("H\(ReplayToken.formatVersion).0.random.0.0.!!!", "not base64url"),
            ("H\(ReplayToken.formatVersion).0.random.0.0.AP8", "unknown operation code 255"),
            ("H\(ReplayToken.formatVersion).0.random.0.0.zAwE", "compressed steps field is corrupt")
        ]
    )
    func malformed(text: String, expected: String) {
        #expect {
            _ = try ReplayToken(parsing: text)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test("a token for another scenario is refused with both names' hashes")
    func otherScenario() throws {
        let failure = try #require(
            try Harness.run(
                "lost update", options: ExplorationOptions(schedules: 500, seed: 7), HarnessScenarios.lostUpdate
            ).failure)
        let expected = HarnessError.configuration(
            .badReplayToken(
                setting: "ExplorationOptions.replay",
                .otherScenario(token: failure.token.scenarioHash, scenario: "locked"))
        )
        #expect(throws: expected) {
            _ = try Harness.run(
                "locked", options: ExplorationOptions(replay: failure.token), HarnessScenarios.lockedIncrements)
        }
    }

    @Test("replaying a token against fixed code passes, naming the step where the code left the token")
    func divergence() throws {
        let failure = try #require(
            try Harness.run(
                "scenario", options: ExplorationOptions(schedules: 500, seed: 7), HarnessScenarios.lostUpdate
            ).failure)
        let replayed = try Harness.run(
            "scenario", options: ExplorationOptions(replay: failure.token), HarnessScenarios.lockedIncrements)
        #expect(replayed.failure == nil)
        let notReproduced = try #require(replayed.notReproduced)
        let divergence = try #require(notReproduced.divergence)
        #expect(divergence.step > 0 && divergence.step < failure.trace.count)
        #expect(divergence.detail.contains("the token has"))
        #expect(notReproduced.tokenSteps == failure.trace.count)
        #expect(notReproduced.schedulesRun == ExplorationOptions().schedules)
        #expect(
            "\(notReproduced)".hasPrefix(
                "the recorded failure no longer happens: the code followed the token for \(divergence.step) of its "
                    + "\(failure.trace.count) steps"
            ))
        #expect(
            "\(notReproduced)".hasSuffix(
                "and a seeded search of \(notReproduced.schedulesRun) schedules from there found no failure"))
    }

    @Test("a replay that follows its whole token without failing says so, and a reproduced one says nothing")
    func followedWithoutFailing() throws {
        let passing = try Harness.run(
            "locked", options: ExplorationOptions(schedules: 1, seed: 7), HarnessScenarios.lockedIncrements)
        let token = try #require(passing.lastSchedule)
        let replayed = try Harness.run(
            "locked", options: ExplorationOptions(replay: token), HarnessScenarios.lockedIncrements)
        #expect(replayed.failure == nil && replayed.schedulesRun == 1)
        let notReproduced = try #require(replayed.notReproduced)
        #expect(notReproduced.divergence == nil && notReproduced.schedulesRun == 1 && notReproduced.tokenSteps > 0)
        #expect(
            "\(notReproduced)"
                == "the recorded failure no longer happens: the code followed all \(notReproduced.tokenSteps) steps of "
                + "the token and did not fail"
        )
        let failure = try #require(
            try Harness.run(
                "scenario", options: ExplorationOptions(schedules: 500, seed: 7), HarnessScenarios.lostUpdate
            ).failure)
        let reproduced = try Harness.run(
            "scenario", options: ExplorationOptions(replay: failure.token), HarnessScenarios.lostUpdate)
        #expect(reproduced.failure != nil && reproduced.notReproduced == nil)
    }

    @Test(
        "a failure's schedule is shrunk to the fewest preemptions, says what it was shrunk from, and replays",
        arguments: [
            Strategy.pct(depth: 3), .random, .pos
        ])
    func shrinking(strategy: Strategy) throws {
        let options = ExplorationOptions(strategy: strategy, schedules: 500, seed: 5)
        let failure = try #require(
            try Harness.run("shrinking", options: options, HarnessScenarios.lostUpdateAmongLocks).failure)
        #expect(failure.preemptions == 1, "\(failure.message)")
        let origin = try #require(failure.shrunkFrom, "nothing to shrink from \(failure.preemptions) preemptions?")
        #expect(origin.preemptions > failure.preemptions)
        #expect(
            failure.message.contains(
                "1 preemption; shrunk from \(origin.steps) steps, \(origin.preemptions) preemptions"))
        let replayed = try #require(
            try Harness.run(
                "shrinking", options: ExplorationOptions(replay: failure.token), HarnessScenarios.lostUpdateAmongLocks
            ).failure)
        #expect(replayed.trace == failure.trace && replayed.reproduction == .exact)
    }

    /// The lost update, with one more atomic step before the threads start when `changed`:
    /// a token of the original no longer fits step by step, but its bug is still there.
    static func lostUpdate(changed: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let counter = SeamAtomic(0)
            if changed { counter.store(0) }
            HarnessScenarios.lostUpdate(scenario, counter: counter)
        }
    }

    @Test("a token the changed code no longer follows reproduces its failure by prefix and search, and says so")
    func prefixAndSearch() throws {
        let original = try #require(
            try Harness.run(
                "evolving", options: ExplorationOptions(schedules: 500, seed: 7), Self.lostUpdate(changed: false)
            ).failure)
        #expect(
            try Harness.run(
                "evolving", options: ExplorationOptions(replay: original.token), Self.lostUpdate(changed: false)
            ).failure?.reproduction == .exact)

        let replayed = try #require(
            try Harness.run(
                "evolving", options: ExplorationOptions(replay: original.token), Self.lostUpdate(changed: true)
            ).failure)
        guard case .prefixAndSearch(let divergence, let schedules) = replayed.reproduction else {
            let reproduction = String(describing: replayed.reproduction)
            Issue.record("expected a reproduction by prefix and search, got \(reproduction): \(replayed.reason)")
            return
        }
        #expect(divergence.step > 0 && schedules >= 1)
        #expect(
            replayed.message.contains(
                "reproduced by prefix and search: the code left the token at step \(divergence.step) "
                    + "(\(divergence.detail)); a seeded search"))
        #expect("\(replayed.reason)".contains("an increment was lost"))
        let again = try #require(
            try Harness.run(
                "evolving", options: ExplorationOptions(replay: replayed.token), Self.lostUpdate(changed: true)
            ).failure)
        #expect(again.reproduction == .exact && again.trace == replayed.trace)
    }

    @Test("environment settings override options, and bad ones say which variable is wrong")
    func environment() throws {
        let options = try ExplorationOptions().applyingEnvironment([
            "HARNESS_STRATEGY": "pct:4", "HARNESS_SCHEDULES": "1234", "HARNESS_SEED": "0x1f", "HARNESS_MAX_STEPS": "99"
        ])
        #expect(options.strategy == .pct(depth: 4))
        #expect(options.schedules == 1234)
        #expect(options.seed == 0x1F)
        #expect(options.maxSteps == 99)
        for (variable, value) in [
            ("HARNESS_SCHEDULES", "many"), ("HARNESS_STRATEGY", "bogus"), ("HARNESS_SEED", "0xZZ"),
            ("HARNESS_REPLAY", "nope")
        ] {
            #expect {
                _ = try ExplorationOptions().applyingEnvironment([variable: value])
            } throws: { error in
                "\(error)".contains(variable)
            }
        }
    }
}

extension Issue {
    /// The whole text of an issue the harness recorded: its headline (the failure's first
    /// line, recorded as the issue's error) and the rest of the report.
    var harnessText: String {
        ([error.map { "\($0)" }] + comments.map(\.rawValue)).compactMap { $0 }.joined(separator: "\n")
    }
}

@Suite("Harness: reports through Swift Testing")
struct HarnessReportTests {
    @Test("a failure is an issue headed by the failure, holding the replay command and the lanes")
    func issueContents() {
        withKnownIssue {
            Harness.explore(
                "lost update", options: ExplorationOptions(schedules: 500, seed: 7, keepsFailures: false),
                HarnessScenarios.lostUpdate)
        } matching: { issue in
            let text = issue.harnessText
            return issue.error.map { "\($0)" }?.hasPrefix("invariant failed on T") == true
                && text.contains("an increment was lost")
                && text.contains("HARNESS_REPLAY='H\(ReplayToken.formatVersion).")
                && text.contains("swift test --filter")
                && text.contains("step  T0")
                && text.contains("HarnessScenarios.swift:")
        }
    }
}

@Suite("Harness: crashes")
struct HarnessCrashTests {
    @Test("a thread that traps prints the replay token of the crashing schedule before the process dies")
    func crashPrintsToken() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = try? Harness.run("crash", options: ExplorationOptions(schedules: 500, seed: 9)) { scenario in
                    let value = SeamAtomic(0)
                    scenario.spawn { value.store(1) }
                    scenario.spawn {
                        let seen = value.load()
                        precondition(seen == 0, "the other thread ran first")
                    }
                }
            }
        )
        try Self.expectReplayCommand(in: result, scenario: "crash")
    }

    @Test(
        "a thread that overflows its stack prints the replay token of the schedule before the process dies",
        arguments: [ScenarioThreads.os, .coroutines]
    )
    func stackOverflowPrintsToken(threads: ScenarioThreads) async throws {
        // A sanitizer handles the SIGSEGV after the harness, and exits with its own status.
        let death: ExitTest.Condition = BuildConfiguration.sanitizer == nil ? .signal(SIGSEGV) : .failure
        let exit = await #expect(processExitsWith: death, observing: [\.standardErrorContent]) {
            [threads = threads as ScenarioThreads] in
            Self.overflowTheStack(threads: threads)
        }
        try Self.expectReplayCommand(in: #require(exit), scenario: "stack overflow")
    }

    /// Explores a scenario whose thread overflows its stack, on `threads`.
    private static func overflowTheStack(threads: ScenarioThreads) {
        let options = ExplorationOptions(schedules: 5, seed: 3, threads: threads)
        _ = try? Harness.run("stack overflow", options: options) { scenario in
            let value = SeamAtomic(0)
            scenario.spawn {
                value.store(1)
                _ = StackOverflow.recurse(value.load())
            }
        }
    }

    /// Checks that the dead process printed the crash report: the scenario, and the command
    /// that replays the crashing schedule, with its steps.
    private static func expectReplayCommand(in result: ExitTest.Result, scenario: String) throws {
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("A thread crashed in scenario '\(scenario)'"))
        let line = try #require(
            stderr.split(separator: "\n").first { $0.hasPrefix("HARNESS_REPLAY='H\(ReplayToken.formatVersion).") })
        let token = try ReplayToken(parsing: String(line.dropFirst("HARNESS_REPLAY='".count).prefix { $0 != "'" }))
        #expect(token.fits(scenario: scenario))
        #expect(token.stepCount > 0)
    }
}

@Suite("Harness: cancellation")
struct HarnessCancellationTests {
    @Test("cancelling a thread blocked in a condition wait wakes it, and its C cleanup runs under control")
    func cancelWakesConditionWaiter() throws {
        let report = try Harness.run("cancel waiter", options: ExplorationOptions(schedules: 100, seed: 4)) { _ in
            let mutex = SeamMutex()
            let condition = SeamCondition()
            let cleanedUp = SeamAtomic(false)
            let context = Unmanaged.passRetained(
                CancellationContext(mutex: mutex, condition: condition, cleanedUp: cleanedUp)
            ).toOpaque()
            let thread = try Seam.spawnThread(
                entry: { argument in
                    cshim_run_with_cleanup(
                        { argument in
                            let context = Unmanaged<CancellationContext>.fromOpaque(argument!).takeRetainedValue()
                            context.mutex.unlock()
                            context.cleanedUp.store(true)
                        }, argument,
                        { argument in
                            let context = Unmanaged<CancellationContext>.fromOpaque(argument!).takeUnretainedValue()
                            context.mutex.lock()
                            while true { context.condition.wait(on: context.mutex) }
                        }, argument)
                }, argument: context
            ).get()
            try thread.cancel()
            try thread.join()
            Harness.check(cleanedUp.load(), "the cleanup did not run")
            Harness.check(mutex.tryLock(), "the cancelled waiter still holds the mutex")
            mutex.unlock()
        }
        #expect(report.failure == nil)
    }
}

private final class CancellationContext: @unchecked Sendable {
    let mutex: SeamMutex
    let condition: SeamCondition
    let cleanedUp: SeamAtomic<Bool>

    init(mutex: SeamMutex, condition: SeamCondition, cleanedUp: SeamAtomic<Bool>) {
        self.mutex = mutex
        self.condition = condition
        self.cleanedUp = cleanedUp
    }
}

@Suite("Harness: crash isolation")
struct HarnessIsolationTests {
    @Test("an isolated exploration survives a crash and reports its replay command")
    func isolatedCrash() {
        withKnownIssue {
            Harness.explore(
                "isolated crash",
                options: ExplorationOptions(schedules: 500, seed: 9, isolation: .process, keepsFailures: false)
            ) { scenario in
                let value = SeamAtomic(0)
                scenario.spawn { value.store(1) }
                scenario.spawn { precondition(value.load() == 0, "the other thread ran first") }
            }
        } matching: { issue in
            let text = issue.harnessText
            // The crashing frame comes from Swift's crash backtracer, which the harness turns
            // off in the child under a sanitizer (it fails there).
            let namesFrame =
                BuildConfiguration.sanitizer != nil || text.contains("HarnessIsolationTests.isolatedCrash()")
            return text.contains("a thread crashed (signal") && text.contains("scenario: isolated crash")
                && text.contains("Precondition failed: the other thread ran first") && namesFrame
                && text.contains("replay: HARNESS_REPLAY='H\(ReplayToken.formatVersion).")
                && text.contains("swift test --filter")
        }
    }

    @Test("an isolated exploration's ordinary failure comes back with its report")
    func isolatedFailure() {
        withKnownIssue {
            Harness.explore(
                "isolated lost update",
                options: ExplorationOptions(schedules: 500, seed: 7, isolation: .process, keepsFailures: false),
                HarnessScenarios.lostUpdate)
        } matching: { issue in
            let text = issue.harnessText
            return text.contains("an increment was lost")
                && text.contains("HARNESS_REPLAY='H\(ReplayToken.formatVersion).") && text.contains("step  T0")
        }
    }
}

@Suite("Harness: progress")
struct HarnessProgressTests {
    @Test("a campaign with a progress interval prints schedules done, the rate and failures")
    func progressLines() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                _ = try? Harness.run(
                    "progress", options: ExplorationOptions(schedules: 300, seed: 3, progressInterval: 0.000_001)
                ) { scenario in
                    scenario.spawn { Seam.yield() }
                }
            }
        )
        let lines = String(decoding: result.standardErrorContent, as: UTF8.self).split(separator: "\n").filter {
            $0.hasPrefix("harness: progress [random seed 0x3] ")
        }
        #expect(lines.count >= 2)
        let last = try #require(lines.last)
        #expect(
            last.contains(" 300/300 schedules, ") && last.hasSuffix("/s, 0 failures"), "last progress line: \(last)")
    }
}
