import CShim
import Dispatch
import Foundation
import Harness
import Primitives
import Testing

@Suite("Harness: tasks")
struct HarnessAsyncTests {
    /// A count the scenarios' tasks add to, on an actor.
    private actor Tally {
        var count = 0
        func add() { count += 1 }
    }

    /// Two tasks read, suspend, then write back: an interleaving at the suspension point
    /// loses an update.
    @Sendable static func suspendedUpdate(_ scenario: Scenario) {
        let counter = SeamAtomic(0)
        for _ in 0..<2 {
            scenario.task {
                let value = counter.load()
                await Task.yield()
                counter.store(value + 1)
            }
        }
        scenario.joinAll()
        Harness.check(counter.load() == 2, "an update was lost across a suspension point")
    }

    @Test(
        "tasks interleave at suspension points under every strategy, and replay exactly",
        arguments: [Strategy.random, .pct(depth: 2), .exhaustive(preemptionBound: 1)])
    func findsTaskInterleaving(strategy: Strategy) throws {
        let report = try Harness.run(
            "suspended update", options: ExplorationOptions(strategy: strategy, schedules: 300, seed: 3),
            Self.suspendedUpdate)
        let failure = try #require(report.failure)
        #expect(failure.trace.contains { $0.kind == .chooseJob })
        for _ in 0..<5 {
            let replayed = try Harness.run(
                "suspended update", options: ExplorationOptions(replay: failure.token), Self.suspendedUpdate)
            #expect(replayed.failure?.trace == failure.trace)
        }
    }

    @Test("tasks that meet only on an actor count an interleaving for each order their jobs ran in")
    func actorOnlyInterleavingsAreCounted() throws {
        func calls(tasks: Int) -> @Sendable (Scenario) -> Void {
            { scenario in
                let tally = Tally()
                for _ in 0..<tasks {
                    scenario.task { for _ in 0..<2 { await tally.add() } }
                }
                scenario.joinAll()
            }
        }
        // No seam object is touched: the jobs' order on the executor is all that differs.
        let three = try Harness.run(
            "three tasks", options: ExplorationOptions(schedules: 200, seed: 4), calls(tasks: 3))
        #expect(three.coverage.distinctInterleavings > 10)
        let again = try Harness.run(
            "three tasks", options: ExplorationOptions(schedules: 200, seed: 4), calls(tasks: 3))
        #expect(again.coverage == three.coverage)
        // A task alone runs its jobs in one order.
        let one = try Harness.run("one task", options: ExplorationOptions(schedules: 50, seed: 4), calls(tasks: 1))
        #expect(one.coverage.distinctInterleavings == 1)
    }

    @Test("child tasks, async let, actors and continuations all run under the harness")
    func structuredConcurrencyStaysControlled() throws {
        let report = try Harness.run("structured", options: ExplorationOptions(schedules: 100, seed: 8)) { scenario in
            let total = SeamAtomic(0)
            scenario.task {
                let tally = Tally()
                async let first: Void = tally.add()
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<3 { group.addTask { await tally.add() } }
                }
                await first
                let extra: Int = await withCheckedContinuation { continuation in
                    Seam.resume(continuation, with: .success(1))
                }
                total.store(await tally.count + extra)
            }
            scenario.joinAll()
            Harness.check(total.load() == 5, "the tasks computed \(total.load())")
        }
        #expect(report.failure == nil)
    }

    @Test("an hour of task sleeping on the seam clock takes no wall time, in deadline order")
    func virtualSleeps() throws {
        let wall = ContinuousClock.now
        let report = try Harness.run("task sleepers", options: ExplorationOptions(schedules: 50, seed: 2)) { scenario in
            let order = AtomicBox<[Int]>([])
            for (index, minutes) in [60, 20, 40].enumerated() {
                scenario.task {
                    try await Task.sleep(for: .seconds(minutes * 60), clock: SeamClock())
                    order.update { $0.append(index) }
                }
            }
            scenario.joinAll()
            Harness.check(order.load() == [1, 2, 0], "woke in the order \(order.load())")
        }
        #expect(report.failure == nil)
        #expect(ContinuousClock.now - wall < .seconds(60))
    }

    @Test("a cancelled sleeper wakes with CancellationError at once")
    func cancelledSleeper() throws {
        let report = try Harness.run("cancelled sleeper", options: ExplorationOptions(schedules: 50, seed: 2)) {
            scenario in
            let outcome = AtomicBox<String>("")
            let sleeper = scenario.task {
                do {
                    try await Task.sleep(for: .seconds(3600), clock: SeamClock())
                    outcome.store("slept")
                } catch is CancellationError {
                    outcome.store("cancelled")
                }
            }
            sleeper.cancel()
            scenario.joinAll()
            Harness.check(outcome.load() == "cancelled", "the sleeper \(outcome.load())")
        }
        #expect(report.failure == nil)
    }

    @Test("a job enqueued from a thread the harness does not control is reported as an escape, naming the thread")
    func escapeIsReported() throws {
        let report = try Harness.run("escape", options: ExplorationOptions(schedules: 1)) { scenario in
            let suspending = SeamAtomic(false)
            let release = DispatchSemaphore(value: 0)
            scenario.task {
                await withCheckedContinuation { continuation in
                    suspending.store(true)
                    Thread.detachNewThread {
                        _ = cshim_set_current_thread_name("escapee")
                        release.wait()
                        continuation.resume()
                    }
                }
            }
            // T0 sees the flag only once the lane reaches its next scheduling point, after the
            // task has suspended: the resume then has to enqueue a job, from outside.
            while !suspending.load() { Seam.yield() }
            release.signal()
        }
        guard case .escaped(let escape)? = report.failure?.reason else {
            Issue.record("expected an escape, got \(String(describing: report.failure?.reason))")
            return
        }
        #expect(escape.thread == "escapee")
        #expect(escape.task == 1)
        #expect(!escape.isMainThread)
    }

    @Test("a check that fails inside a task fails the execution")
    func checkInsideTask() throws {
        let report = try Harness.run("check in task", options: ExplorationOptions(schedules: 1)) { scenario in
            scenario.task { Harness.check(false, "checked inside a task") }
        }
        #expect("\(try #require(report.failure).reason)".contains("checked inside a task"))
    }
}

@Suite("Harness: tasks that throw")
struct HarnessTaskErrorTests {
    @Test("an error thrown by a scenario task fails the execution as such")
    func taskThrows() throws {
        struct Broken: Error {}
        let report = try Harness.run("task throws", options: ExplorationOptions(schedules: 1)) { scenario in
            scenario.task { throw Broken() }
        }
        #expect(report.failure?.reason == .taskThrew(error: "Broken()"))
    }
}
