@testable import Harness
import Primitives
import Testing

/// Every strategy against two classic bugs, each with its fix, on real controlled threads
/// and tasks, with a fixed seed: each bug is found within `budget` schedules, and each fix
/// passes `passingBudget` (a quarter, to keep the gate quick; the bugs fall within 200).
@Suite("Harness: every strategy finds the classic bugs and passes their fixes")
struct HarnessStrategyTests {
    static let strategies: [Strategy] = [
        .random, .pct(depth: 3), .exhaustive(preemptionBound: 2), .pos, .surw, .portfolio
    ]
    static let budget = 2_000
    static let passingBudget = 500

    static func options(_ strategy: Strategy, schedules: Int = budget) -> ExplorationOptions {
        ExplorationOptions(strategy: strategy, schedules: schedules, seed: 1)
    }

    @Test(
        "a condition wait guarded by `if` instead of `while` is found, through a spurious wake-up",
        arguments: strategies)
    func unguardedWait(strategy: Strategy) throws {
        let report = try Harness.run(
            "if instead of while", options: Self.options(strategy), HarnessScenarios.conditionWait(recheck: false))
        let failure = try #require(
            report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect(!report.exhausted)
        #expect(failure.trace.contains { $0.kind == .spuriousWake })
        guard case .invariant(let message, _, _, _) = failure.reason else {
            Issue.record("expected the consumer's check to fail, got \(failure.reason)")
            return
        }
        #expect(message.contains("before the flag was set"))
    }

    @Test("the same wait in a `while` loop passes (and exhaustive search covers it)", arguments: strategies)
    func guardedWait(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run(
            "while around the wait", options: options, HarnessScenarios.conditionWait(recheck: true))
        #expect(report.failure == nil)
        if strategy == .exhaustive(preemptionBound: 2) {
            #expect(report.exhausted && report.schedulesRun < Self.passingBudget)
        } else {
            #expect(!report.exhausted && report.schedulesRun == Self.passingBudget)
        }
    }

    @Test("a lost update between two task-group children is found", arguments: strategies)
    func taskGroupLostUpdate(strategy: Strategy) throws {
        let report = try Harness.run(
            "task group lost update", options: Self.options(strategy),
            HarnessScenarios.taskGroupIncrements(atomically: false))
        let failure = try #require(
            report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        guard case .invariant(let message, _, _, _) = failure.reason else {
            Issue.record("expected the counter check to fail, got \(failure.reason)")
            return
        }
        #expect(message.contains("an increment was lost"))
    }

    @Test("the same children adding atomically pass (and exhaustive search covers them)", arguments: strategies)
    func taskGroupAtomicAdds(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run(
            "task group atomic adds", options: options, HarnessScenarios.taskGroupIncrements(atomically: true))
        #expect(report.failure == nil)
        if strategy == .exhaustive(preemptionBound: 2) {
            #expect(report.exhausted && report.schedulesRun < Self.passingBudget)
        } else {
            #expect(!report.exhausted && report.schedulesRun == Self.passingBudget)
        }
    }

    @Test(
        "exhaustive search covers every schedule of the task group within one preemption, job orders too, and says so"
    )
    func taskGroupExhausted() throws {
        let options = ExplorationOptions(strategy: .exhaustive(preemptionBound: 1), schedules: Self.budget)
        let report = try Harness.run(
            "task group atomic adds, bound 1", options: options, HarnessScenarios.taskGroupIncrements(atomically: true))
        #expect(report.failure == nil)
        #expect(report.exhausted && report.schedulesRun < Self.budget)
    }

    @Test("an actor-reentrancy overdraft is found", arguments: strategies)
    func actorReentrancy(strategy: Strategy) throws {
        let report = try Harness.run(
            "overdraft", options: Self.options(strategy), AsyncBugScenarios.overdraft(rechecks: false))
        let failure = try #require(
            report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect("\(failure.reason)".contains("overdrawn: its balance is -60"))
    }

    @Test("the account that re-checks after its await is never overdrawn", arguments: strategies)
    func actorRechecks(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run("no overdraft", options: options, AsyncBugScenarios.overdraft(rechecks: true))
        #expect(report.failure == nil)
    }

    @Test(
        "a reply racing a timeout that resumes a continuation twice is found, under process isolation",
        arguments: strategies)
    func replyRacingTimeout(strategy: Strategy) throws {
        var options = Self.options(strategy)
        options.isolation = .process
        let report = try Harness.run(
            "reply racing timeout", options: options, AsyncBugScenarios.replyRacingTimeout(claimsAtomically: false))
        let failure = try #require(
            report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect("\(failure.reason)".contains("SWIFT TASK CONTINUATION MISUSE"), "\(failure.reason)")
    }

    @Test("claiming the continuation atomically resumes it once", arguments: strategies)
    func replyClaimedOnce(strategy: Strategy) throws {
        let options = Self.options(strategy, schedules: Self.passingBudget)
        let report = try Harness.run(
            "reply claimed once", options: options, AsyncBugScenarios.replyRacingTimeout(claimsAtomically: true))
        #expect(report.failure == nil)
    }
}

@Suite("Harness: timeouts that race progress")
struct HarnessTimeoutRaceTests {
    @Test(
        "at default options, every strategy lets a 10 ms timeout fire while the server still works",
        arguments: HarnessStrategyTests.strategies
    )
    func timeoutBeatsWork(strategy: Strategy) throws {
        let options = HarnessStrategyTests.options(strategy)
        let report = try Harness.run("timeout races work", options: options, AsyncBugScenarios.slowServerRacingTimeout)
        let failure = try #require(
            report.failure, "\(strategy) ran \(report.schedulesRun) schedules without finding it")
        #expect("\(failure.reason)".contains("the reply lost its race"))
        #expect(failure.trace.contains { $0.kind == .advanceClock })
        let replayed = try #require(
            try Harness.run(
                "timeout races work", options: ExplorationOptions(replay: failure.token),
                AsyncBugScenarios.slowServerRacingTimeout
            ).failure)
        #expect(replayed.trace == failure.trace)
    }

    @Test(
        "at default options, every strategy finds a reply after 5 ms and some work losing to a 10 ms timeout",
        arguments: HarnessStrategyTests.strategies
    )
    func replyAfterWorkLosesToTimeout(strategy: Strategy) throws {
        let options = ExplorationOptions(strategy: strategy, seed: 1)
        let report = try Harness.run(
            "reply after work", options: options, AsyncBugScenarios.replyAfterWorkRacingTimeout)
        let failure = try #require(report.failure, "\(strategy) ran \(report.schedulesRun) schedules, found nothing")
        #expect("\(failure.reason)".contains("the request got 'timed out'"), "\(failure.reason)")
    }

    /// Pinned the old default until the clock raced work by default: now the behaviour of a
    /// bound of zero.
    @Test("with a bound of zero, the clock moves only when nothing else can run, so the server always wins")
    func clockWaitsForWork() throws {
        var options = ExplorationOptions(strategy: .exhaustive(preemptionBound: 2), schedules: 2_000)
        options.timeoutRaceBound = .zero
        let report = try Harness.run("timeout after work", options: options, AsyncBugScenarios.slowServerRacingTimeout)
        #expect(report.failure == nil && report.exhausted)
    }

    @Test("a timeout further ahead than the bound does not race work", arguments: HarnessStrategyTests.strategies)
    func timeoutBeyondTheBound(strategy: Strategy) throws {
        var options = HarnessStrategyTests.options(strategy, schedules: HarnessStrategyTests.passingBudget)
        options.timeoutRaceBound = .milliseconds(9)
        let report = try Harness.run("beyond the bound", options: options, AsyncBugScenarios.slowServerRacingTimeout)
        #expect(report.failure == nil)
    }
}

@Suite("Harness: an async failure reads as the user's tasks")
struct HarnessTaskReportTests {
    @Test("the overdraft's report shows the tasks as lanes, no line of the harness's files, in 30 lines")
    func overdraftReport() throws {
        let report = try Harness.run(
            "overdraft report", options: ExplorationOptions(schedules: 500, seed: 3),
            AsyncBugScenarios.overdraft(rechecks: false))
        let failure = try #require(report.failure)
        let lines = failure.message.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 30, "\(failure.message)")
        #expect(
            !failure.message.contains("AsyncServices.swift") && !failure.message.contains("Harness/"),
            "\(failure.message)")
        let header = try #require(lines.first { $0.hasPrefix("step ") })
        #expect(
            header.contains("task 1 AsyncBugScenarios.swift:43")
                && header.contains("task 2 AsyncBugScenarios.swift:43"), "\(header)")
        #expect(
            !header.contains("T1") && !header.contains("T2"), "executor lanes are not lanes of the report: \(header)")
        #expect(failure.message.contains("resumes") && failure.message.contains("suspends"))
        // The executor's own unlocks, signals and broadcasts, which never wait, are no steps either.
        let executorSteps = failure.trace.filter {
            $0.location?.description.contains("AsyncServices.swift") == true
                && [.unlock, .signal, .broadcast].contains($0.kind)
        }
        #expect(executorSteps.isEmpty, "\(executorSteps)")
    }

    @Test("the overdraft's report names both tasks' reads, the await between them and both writes, in the user's lines")
    func overdraftNamesUserLines() throws {
        let options = ExplorationOptions(schedules: 500, seed: 3)
        let report = try Harness.run("overdraft lines", options: options, AsyncBugScenarios.overdraft(rechecks: false))
        let failure = try #require(report.failure)
        let message = failure.message
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 30, "\(message)")
        for harnessName in ["AsyncServices", "Execution.swift", "Harness/", "mutex#", "condition#", "T1 ", "T2 "] {
            #expect(!message.contains(harnessName), "\(harnessName) in:\n\(message)")
        }
        let withdraw = "BankAccount.withdraw(_:audit:)"
        // Each task reads the balance (line 18) and suspends to call the audit log's actor at
        // its await (19), the other reading meanwhile; each then comes back to the account
        // and writes (20 until it returns).
        let read = "\(withdraw): resumed at AsyncBugScenarios.swift:18, changes executor before :19"
        let reads = lines.filter { $0.contains(read) }
        let writes = lines.filter { $0.contains("\(withdraw): resumed at AsyncBugScenarios.swift:20, returned") }
        #expect(reads.count == 2 && writes.count == 2, "\(message)")
        #expect(Set(reads.map(Self.column)).count == 2, "the reads are not in two tasks' lanes:\n\(message)")
        let firstWrite = try #require(lines.firstIndex { writes.contains($0) })
        let lastRead = lines.lastIndex { reads.contains($0) }
        #expect(lastRead.map { $0 < firstWrite } == true, "both read before a write:\n\(message)")
        // The picture: the same steps, and no executor lane.
        let picture = failure.picture
        #expect(picture.lanes.map(\.label).filter { $0.hasPrefix("T") } == ["T0"], "\(picture.lanes)")
        #expect(picture.html.contains(read))
        #expect(!picture.html.contains("AsyncServices.swift"))
    }

    @Test(
        "a task that suspends in a call outside the user's code waits at the await of its innermost frame in it",
        .timeLimit(.minutes(10))
    )
    func suspensionInsideACallee() throws {
        let options = ExplorationOptions(schedules: 200, seed: 1)
        let report = try Harness.run(
            "double fetch", options: options, AsyncBugScenarios.doubleFetch(sharesFetch: false))
        let failure = try #require(report.failure)
        let message = failure.message
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        // Each task enters the cache at line 165, calls `fetch()` at 167 and waits in
        // `Task.sleep` at 174; back from it, it comes back to the cache to go on at 174 or 175
        // (where the compiler put the hop).
        let fetch =
            "TokenCache.accessToken(): resumed at AsyncBugScenarios.swift:165, called TokenCache.fetch() at :167"
        let fetches = lines.filter { $0.contains(fetch + ", suspended at :174") }
        #expect(fetches.count == 2 && Set(fetches.map(Self.column)).count == 2, "\(message)")
        let backs = lines.filter {
            $0.contains("TokenCache.fetch(): resumed at AsyncBugScenarios.swift:174, changes executor before :17")
        }
        #expect(backs.count == 2, "\(message)")
        // No row for a job that ran only the standard library's part of the sleep, and no
        // claim that the cache returned while its call to `fetch()` still waits.
        #expect(!message.contains(":174, suspended at :174") && !message.contains(":165, returned"), "\(message)")
        #expect(failure.picture.html.contains(fetch))
    }

    @Test(
        "against the fix, the double fetch no longer happens, and where the code left the token names no harness line"
    )
    func doubleFetchFixed() throws {
        let options = ExplorationOptions(schedules: 200, seed: 1)
        let failure = try #require(
            try Harness.run("double fetch", options: options, AsyncBugScenarios.doubleFetch(sharesFetch: false)).failure
        )
        let replayed = try Harness.run(
            "double fetch", options: ExplorationOptions(replay: failure.token),
            AsyncBugScenarios.doubleFetch(sharesFetch: true))
        #expect(replayed.failure == nil)
        let notReproduced = try #require(replayed.notReproduced)
        let text = "\(notReproduced)"
        #expect(text.hasPrefix("the recorded failure no longer happens: the code followed the token for "), "\(text)")
        // The fix's first different step is the executor's (a task that waits for the fetch
        // suspends where the token's ran on): said so, without the harness's own lines.
        #expect(text.contains("(the code's tasks queued or ran other jobs than the token's: the token has "), "\(text)")
        #expect(!text.contains(".swift") && !text.contains("@"), "\(text)")
    }

    @Test("without whole stacks, a job that suspends outside the user's code says so, and claims no return")
    func innermostFrameOnly() {
        let start = CodePlace(file: "Cache.swift", line: 9, function: "Cache.get()")
        let callee = CodePlace(file: "Cache.swift", line: 17, function: "Cache.fetch()")
        func text(_ suspendedIn: [CodePlace]?, whole: Bool) -> String {
            TaskJobPlaces(task: 1, resumedIn: [start], suspendedIn: suspendedIn, wholeStacks: whole).stepText
        }
        #expect(
            text([], whole: false) == "Cache.get(): resumed at Cache.swift:9, suspended outside the code under test")
        #expect(text([], whole: true) == "Cache.get(): resumed at Cache.swift:9, returned")
        #expect(
            text([callee], whole: false) == "Cache.get(): resumed at Cache.swift:9; suspended at :17 in Cache.fetch()")
        #expect(
            text([callee, CodePlace(file: "Cache.swift", line: 10, function: "Cache.get()")], whole: true)
                == "Cache.get(): resumed at Cache.swift:9, called Cache.fetch() at :10, suspended at :17")
        #expect(text(nil, whole: true) == "Cache.get(): resumed at Cache.swift:9, ended")
    }

    /// Where a lane row's text begins: its lane.
    private static func column(_ line: Substring) -> Int {
        line.dropFirst(6).prefix { $0 == " " }.count
    }
}
