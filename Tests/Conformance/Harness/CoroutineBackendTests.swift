import CShim
import Fixtures
import Foundation
import Harness
import Primitives
import SanitizerSupport
import Testing

/// Coroutines exist in builds without a sanitizer on x86_64 and arm64; elsewhere the
/// harness runs every thread on an OS thread and these tests have nothing to check.
private let coroutinesMissing = !cshim_coroutines_supported()

@Suite(
    "Coroutines: the context switch",
    .disabled(if: coroutinesMissing, "this build switches no coroutines (a sanitizer, or another processor)"))
struct CoroutineSwitchTests {
    /// Two coroutines and the thread's own context pass control around a ring; each keeps an
    /// `inout` access to a class property open across its switches (Swift's exclusivity
    /// checking would trap if the access stayed on the thread's list for the next coroutine),
    /// and each finds its own `errno` and seam slot again.
    @Test("a ring of switches keeps each coroutine's registers, errno, seam slot and open accesses")
    func ring() throws {
        let ring = SwitchRing()
        try ring.run(rounds: 1_000)
        #expect(ring.counts == [1_000, 1_000])
        #expect(ring.mismatches.isEmpty, "\(ring.mismatches)")
    }
}

/// The harness of ``CoroutineSwitchTests``: the thread's context is coroutine 2.
private final class SwitchRing: @unchecked Sendable {
    /// What both coroutines hold an `inout` access to while they switch.
    final class Shared { var value = 0 }
    let shared = Shared()
    var counts = [0, 0]
    var mismatches: [String] = []
    private let contexts = UnsafeMutablePointer<cshim_coroutine>.allocate(capacity: 3)
    private let stackSize = 256 << 10
    private var stacks: [UnsafeMutableRawPointer] = []
    private var rounds = 0

    func run(rounds: Int) throws {
        self.rounds = rounds
        contexts.initialize(repeating: cshim_coroutine(), count: 3)
        defer { contexts.deallocate() }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let entries: [@convention(c) (UnsafeMutableRawPointer?) -> Void] = [ringEntry0, ringEntry1]
        for index in 0..<2 {
            let stack = try #require(cshim_coroutine_stack_create(stackSize))
            stacks.append(stack)
            cshim_coroutine_prepare(contexts + index, stack, stackSize, entries[index], me)
        }
        defer { for stack in stacks { cshim_coroutine_stack_destroy(stack, stackSize) } }
        let previous = cshim_seam_current()
        cshim_seam_set_current(UnsafeMutableRawPointer(bitPattern: 0x3000))
        cshim_coroutine_switch(contexts + 2, contexts)
        if cshim_seam_current() != UnsafeMutableRawPointer(bitPattern: 0x3000) {
            mismatches.append("the thread's seam slot")
        }
        cshim_seam_set_current(previous)
    }

    /// Coroutine `index`'s body: counts inside an open access to `shared.value`, switching to
    /// the next coroutine in the ring at every count; the last count of coroutine 1 ends the
    /// ring in the thread's context.
    func body(_ index: Int) -> Never {
        let slot = UnsafeMutableRawPointer(bitPattern: 0x1000 * (index + 1))
        cshim_seam_set_current(slot)
        modify(&shared.value) { _ in
            for round in 0..<rounds {
                counts[index] += 1
                errno = Int32(100 + index)
                let next = index == 1 && round == rounds - 1 ? 2 : (index + 1) % 2
                cshim_coroutine_switch(contexts + index, contexts + next)
                if errno != Int32(100 + index) { mismatches.append("errno of coroutine \(index)") }
                if cshim_seam_current() != slot { mismatches.append("seam slot of coroutine \(index)") }
            }
        }
        preconditionFailure("coroutine \(index) was resumed after the ring ended")
    }

    private func modify(_ value: inout Int, _ body: (inout Int) -> Void) {
        body(&value)
    }
}

private func ringEntry0(_ argument: UnsafeMutableRawPointer?) {
    Unmanaged<SwitchRing>.fromOpaque(argument!).takeUnretainedValue().body(0)
}

private func ringEntry1(_ argument: UnsafeMutableRawPointer?) {
    Unmanaged<SwitchRing>.fromOpaque(argument!).takeUnretainedValue().body(1)
}

@Suite(
    "Coroutines: scenario threads as coroutines",
    .disabled(if: coroutinesMissing, "this build switches no coroutines (a sanitizer, or another processor)"))
struct CoroutineBackendTests {
    private static func options(
        _ strategy: Strategy, schedules: Int, seed: UInt64, threads: ScenarioThreads = .coroutines
    ) -> ExplorationOptions {
        ExplorationOptions(strategy: strategy, schedules: schedules, seed: seed, threads: threads)
    }

    /// What makes coroutines fast, and why code that tells threads apart by `pthread_self`
    /// needs OS threads (``ScenarioThreads/coroutines``): asked past the watch
    /// (`cshim_thread_self`), the coroutines answer with one thread.
    @Test("scenario threads share one OS thread as coroutines, and have one each on OS threads")
    func oneOSThread() throws {
        for threads in [ScenarioThreads.coroutines, .os] {
            let handles = AtomicBox<[pthread_t]>([])
            let report = try Harness.run(
                "who runs", options: Self.options(.random, schedules: 1, seed: 1, threads: threads)
            ) { scenario in
                for _ in 0..<3 {
                    scenario.spawn { handles.update { $0.append(cshim_thread_self()) } }
                }
            }
            #expect(report.failure == nil)
            let distinct = Set(handles.load().map { UInt(bitPattern: Int(bitPattern: $0)) })
            #expect(
                threads == .coroutines ? distinct.count == 1 : distinct.count > 1,
                "\(threads): \(distinct.count) OS threads")
        }
    }

    @Test(
        "every strategy finds the lost update on coroutines, and its token replays the same trace on OS threads",
        arguments: [Strategy.random, .pct(depth: 2), .exhaustive(preemptionBound: 1), .pos, .surw, .portfolio]
    )
    func findsAndReplaysAcrossBackends(strategy: Strategy) throws {
        let report = try Harness.run(
            "lost update", options: Self.options(strategy, schedules: 2_000, seed: 5), HarnessScenarios.lostUpdate)
        let failure = try #require(report.failure)
        #expect("\(failure.reason)".contains("an increment was lost"))
        for threads in [ScenarioThreads.os, .coroutines] {
            var replay = Self.options(strategy, schedules: 1, seed: 5, threads: threads)
            replay.replay = try ReplayToken(parsing: failure.token.description)
            let again = try #require(
                try Harness.run("lost update", options: replay, HarnessScenarios.lostUpdate).failure)
            #expect(again.trace == failure.trace, "replayed on \(threads)")
        }
    }

    /// The schedule a strategy picks depends on what the threads do, never on what they
    /// run as: the same seed gives the same schedules, step for step.
    @Test(
        "the same seed runs the same schedules on coroutines as on OS threads",
        arguments: [Strategy.random, .pct(depth: 3), .portfolio])
    func sameSchedulesOnEitherBackend(strategy: Strategy) throws {
        var tokens: [ScenarioThreads: [String]] = [:]
        for threads in [ScenarioThreads.os, .coroutines] {
            for schedules in [1, 7, 40] {
                let report = try Harness.run(
                    "worker stop drains",
                    options: Self.options(strategy, schedules: schedules, seed: 3, threads: threads),
                    WorkerScenarios.stopDrainsWork { LiveWorkerThread() }
                )
                #expect(report.failure == nil)
                tokens[threads, default: []].append(try #require(report.lastSchedule).description)
            }
        }
        #expect(tokens[.os] == tokens[.coroutines])
    }

    @Test("deadlocks and lost wake-ups are reported on coroutines as on OS threads")
    func blockingFailures() throws {
        let deadlock = try Harness.run(
            "deadlock", options: Self.options(.exhaustive(preemptionBound: 2), schedules: 1_000, seed: 1),
            HarnessScenarios.lockOrderInversion)
        guard case .deadlock(_, let cycle)? = deadlock.failure?.reason else {
            Issue.record("expected a deadlock, got \(String(describing: deadlock.failure?.reason))")
            return
        }
        #expect(Set(try #require(cycle)) == [1, 2])
        let wakeup = try Harness.run(
            "lost wakeup", options: Self.options(.random, schedules: 500, seed: 3), HarnessScenarios.lostWakeup)
        let reason = String(describing: wakeup.failure?.reason)
        #expect(reason.contains("nobody will signal"), "\(reason)")
    }

    @Test("a wait guarded by if instead of while is found on coroutines, and the fix passes")
    func spuriousWakeups() throws {
        let buggy = try Harness.run(
            "if wait", options: Self.options(.portfolio, schedules: 2_000, seed: 1),
            HarnessScenarios.conditionWait(recheck: false))
        #expect(buggy.failure != nil)
        let fixed = try Harness.run(
            "while wait", options: Self.options(.portfolio, schedules: 500, seed: 1),
            HarnessScenarios.conditionWait(recheck: true))
        #expect(fixed.failure == nil)
    }

    /// A coroutine cannot be cancelled with `pthread_cancel` or given thread-specific storage
    /// of its own: the execution runs again, and the exploration goes on, on OS threads.
    @Test("a cancelled closure thread and thread-specific storage move the exploration to OS threads")
    func fallsBackToOSThreads() throws {
        let cancelled = try Harness.run(
            "cancel a closure thread", options: Self.options(.random, schedules: 50, seed: 2)
        ) { _ in
            let stopped = SeamAtomic(false)
            let thread = try Seam.spawnThread {
                while true { Seam.cancellationPoint() }
            }.get()
            try thread.cancel()
            try thread.join()
            stopped.store(true)
            Harness.check(stopped.load(), "the cancelled thread was not joined")
        }
        #expect(cancelled.failure == nil, "\(String(describing: cancelled.failure))")
        #expect(cancelled.schedulesRun == 50)

        let storage = try Harness.run(
            "thread-local values", options: Self.options(.portfolio, schedules: 200, seed: 2),
            LockScenarios.threadLocalIsolation)
        #expect(storage.failure == nil, "\(String(describing: storage.failure))")
        #expect(storage.schedulesRun == 200)
    }

    @TaskLocal private static var taskNumber: Int?

    /// Where coroutines carry the concurrency runtime's per-thread state, the executor's
    /// lanes are coroutines too: a task's job runs on the scenario's one OS thread, and a job
    /// that blocks in the middle (on a seam mutex another task holds) is switched out and
    /// finds its own task, and its task-local value, when it goes on.
    @Test(
        "tasks' jobs run as coroutines, and a job switched out in the middle finds its own task again",
        .enabled(if: cshim_coroutines_carry_tasks(), "coroutines do not carry tasks on this platform"))
    func jobsAsCoroutines() throws {
        let contended = AtomicBox(0)
        let report = try Harness.run(
            "jobs switched out", options: Self.options(.random, schedules: 200, seed: 4)
        ) { scenario in
            let mutex = SeamMutex()
            let holders = SeamAtomic(0)
            let systemIDs = AtomicBox<Set<UInt64>>([cshim_current_thread_system_id()])
            for number in 0..<3 {
                scenario.task {
                    Self.$taskNumber.withValue(number) {
                        let before = withUnsafeCurrentTask { $0 }
                        systemIDs.update { _ = $0.insert(cshim_current_thread_system_id()) }
                        if holders.load() != 0 { contended.update { $0 += 1 } }
                        mutex.lock()
                        holders.store(1)
                        holders.store(0)
                        let after = withUnsafeCurrentTask { $0 }
                        Harness.check(before == after, "task \(number) went on as another task")
                        Harness.check(Self.taskNumber == number, "task \(number) lost its task-local value")
                        mutex.unlock()
                    }
                }
            }
            scenario.joinAll()
            Harness.check(systemIDs.load().count == 1, "tasks ran on \(systemIDs.load().count) OS threads")
        }
        #expect(report.failure == nil, "\(String(describing: report.failure))")
        #expect(report.schedulesRun == 200)
        #expect(contended.load() > 0, "no job blocked in the middle")
    }

    @Test("a scenario thread blocked outside the seam is reported as stalled, with where it blocked")
    func stallOnACoroutine() throws {
        var options = Self.options(.random, schedules: 1, seed: 1)
        options.stallTimeout = .milliseconds(300)
        let report = try Harness.run("coroutine stall", options: options) { scenario in
            scenario.spawn {
                var descriptors: [Int32] = [0, 0]
                guard pipe(&descriptors) == 0 else { return }
                var byte: UInt8 = 0
                _ = read(descriptors[0], &byte, 1)
            }
        }
        guard case .stalled(let thread, _, let diagnosis)? = report.failure?.reason else {
            Issue.record("expected a stall, got \(String(describing: report.failure?.reason))")
            return
        }
        #expect(thread == 1)
        // Read from the OS thread that hosts the coroutine, which thread 0 noted for all of
        // them: a coroutine notes none of its own.
        #expect(diagnosis.activity == .blocked)
        #expect(diagnosis.blockedIn?.blocker == .systemCall, "\(diagnosis)")
    }

    /// A coroutine is joined without a completion of its own: its controller's join point
    /// returns after the thread's exit, so the body's effects are there. A second join of a
    /// thread, which failed in `pthread_join` on an OS thread and would return at once on a
    /// coroutine, fails the execution on both backends, where it was written.
    @Test("a join sees the thread's effects on both backends, and a second join fails the execution")
    func joins() throws {
        for threads in [ScenarioThreads.coroutines, .os] {
            let report = try Harness.run(
                "join, then read", options: Self.options(.random, schedules: 40, seed: 3, threads: threads)
            ) { scenario in
                let stores = [SeamAtomic(false), SeamAtomic(false)]
                let writers = stores.map { stored in scenario.spawn { stored.store(true) } }
                for (writer, stored) in zip(writers, stores) {
                    writer.join()
                    Harness.check(stored.load(), "T\(writer.number)'s store is missing after its join")
                }
            }
            #expect(report.failure == nil, "\(threads): \(String(describing: report.failure))")
            let secondJoinLine = #line + 6
            let joinedTwice = try Harness.run(
                "joined twice", options: Self.options(.random, schedules: 5, seed: 1, threads: threads)
            ) { scenario in
                let thread = scenario.spawn {}
                thread.join()
                thread.join()
            }
            #expect(
                joinedTwice.failure?.reason
                    == .joinedTwice(
                        thread: 0, target: 1,
                        location: SeamLocation(
                            fileID: "Conformance/CoroutineBackendTests.swift", line: UInt(secondJoinLine))),
                "\(threads): \(String(describing: joinedTwice.failure))")
        }
    }

    @Test("HARNESS_THREADS picks the backend and names what it expects")
    func environmentKnob() throws {
        #expect(try ExplorationOptions().applyingEnvironment(["HARNESS_THREADS": "coroutines"]).threads == .coroutines)
        #expect(
            try ExplorationOptions(threads: .coroutines).applyingEnvironment(["HARNESS_THREADS": "os"]).threads == .os)
        #if canImport(Darwin)
        #expect(ExplorationOptions().threads == .os)
        #elseif canImport(Glibc) || canImport(Musl)
        #expect(ExplorationOptions().threads == (cshim_coroutines_supported() ? .coroutines : .os))
        #else
        #error("environmentKnob: unsupported platform")
        #endif
        for bad in ["OS", "fibers", "coroutines "] {
            #expect {
                _ = try ExplorationOptions().applyingEnvironment(["HARNESS_THREADS": bad])
            } throws: { error in
                "\(error)".contains("HARNESS_THREADS") && "\(error)".contains("coroutines or os")
            }
        }
    }
}
