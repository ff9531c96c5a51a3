import CShim
import Foundation
import Harness
import Primitives
import Testing

/// Where coroutines are the default, an exploration's executions run on a runner thread that
/// hosts their coroutines itself, while the test's thread watches for a stall.
@Suite(
    "ExecutionRunner: executions on the thread that hosts their coroutines",
    .disabled(if: ScenarioThreads.platformDefault != .coroutines, "coroutines are not the default here"))
struct ExecutionRunnerTests {
    /// An execution handed to another OS thread and waited for costs the host thread a
    /// voluntary context switch at least (it sleeps until the next execution comes); a runner
    /// that hosts the coroutines of a seam-only scenario itself never sleeps between
    /// executions. Counts the host's voluntary switches from the first execution to the last.
    @Test("a seam-only exploration wakes and waits for no other OS thread between executions")
    func noHandoffBetweenExecutions() throws {
        let switches = AtomicBox<[Int]>([])
        let hosts = AtomicBox<Set<UInt>>([])
        let schedules = 300
        let report = try Harness.run(
            "runner hosts coroutines", options: ExplorationOptions(strategy: .random, schedules: schedules, seed: 3)
        ) { scenario in
            switches.update { $0.append(Self.voluntarySwitchesOfThisThread()) }
            hosts.update { _ = $0.insert(UInt(cshim_thread_self())) }
            let mutex = SeamMutex()
            let counter = SeamAtomic(0)
            for _ in 0..<2 {
                scenario.spawn { mutex.withLock { counter.store(counter.load() + 1) } }
            }
        }
        #expect(report.failure == nil && report.schedulesRun == schedules)
        #expect(hosts.load().count == 1, "the executions ran on \(hosts.load().count) OS threads")
        #expect(!hosts.load().contains(UInt(cshim_thread_self())), "the test's own thread hosted the coroutines")
        let counts = switches.load()
        let slept = try #require(counts.last) - (try #require(counts.first))
        #expect(counts.count == schedules)
        #expect(slept < schedules / 10, "the host slept \(slept) times in \(schedules - 1) executions")
    }

    /// A stall found while the search runs on runners is reported as before, and is the same
    /// schedule whether one worker or two ran the search: the watcher takes the stalled
    /// execution over while the other worker goes on, and the exploration returns.
    @Test("a stall on a runner is reported with where it blocked, the same schedule on one worker and on two")
    func stallOnARunner() throws {
        let tokens = try [1, 2].map { workers in
            var options = ExplorationOptions(strategy: .random, schedules: 200, seed: 5, workers: workers)
            options.stallTimeout = .milliseconds(300)
            let report = try Harness.run("stall on a runner", options: options) { scenario in
                let stored = SeamAtomic(false)
                scenario.spawn { stored.store(true) }
                scenario.spawn {
                    guard stored.load() else { return }
                    var descriptors: [Int32] = [0, 0]
                    guard pipe(&descriptors) == 0 else { return }
                    var byte: UInt8 = 0
                    _ = read(descriptors[0], &byte, 1)
                }
            }
            let failure = try #require(report.failure, "the stall on \(workers) workers went unreported")
            guard case .stalled(let thread, _, let diagnosis) = failure.reason else {
                Issue.record("expected a stall, got \(failure.reason)")
                return "none"
            }
            #expect(thread == 2)
            #expect("\(diagnosis)".hasPrefix("blocked"), "\(diagnosis)")
            #expect(report.workers == workers)
            return "\(failure.token)"
        }
        #expect(tokens[0] == tokens[1])
    }

    /// The calling OS thread's voluntary context switches so far (`getrusage` of
    /// `RUSAGE_THREAD`, 1, which the Glibc module does not import); -1 if it cannot tell.
    private static func voluntarySwitchesOfThisThread() -> Int {
        var usage = rusage()
        guard getrusage(.init(1), &usage) == 0 else { return -1 }
        return usage.ru_nvcsw
    }
}
