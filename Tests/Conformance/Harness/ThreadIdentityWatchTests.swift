import CShim
import Fixtures
import Foundation
@testable import Harness
import Primitives
import Synchronization
import Testing

private let watchMissing = ScenarioThreads.platformDefault != .coroutines

/// A mailbox whose posts wait to be applied, and whose `read` applies only the reader's own
/// posts ("read your writes"), its threads told apart by `key`: a read that starts after
/// another thread posted misses the post. On coroutines that share one OS thread every thread
/// has the same key, so each read applies every post and the defect hides.
private final class ReadYourPostsMailbox: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var value = 0
    private var pending: [UInt: [Int]] = [:]
    private let key: @Sendable () -> UInt

    init(key: @escaping @Sendable () -> UInt) {
        self.key = key
    }

    func post(_ value: Int) {
        let me = key()
        mutex.withLock { pending[me, default: []].append(value) }
    }

    func read() -> Int {
        let me = key()
        return mutex.withLock {
            value = pending.removeValue(forKey: me)?.last ?? value
            return value
        }
    }
}

@Sendable private func pthreadSelfKey() -> UInt {
    UInt(pthread_self())
}

@Sendable private func currentThreadKey() -> UInt {
    UInt(bitPattern: ObjectIdentifier(Thread.current).hashValue)
}

/// One thread posts and then says so; the other, once told, must read the post.
private func readsAnotherThreadsPost(key: @escaping @Sendable () -> UInt) -> @Sendable (Scenario) throws -> Void {
    { scenario in
        let mailbox = ReadYourPostsMailbox(key: key)
        let posted = SeamAtomic(false)
        scenario.spawn {
            mailbox.post(1)
            posted.store(true)
        }
        scenario.spawn {
            if posted.load() {
                Harness.check(mailbox.read() == 1, "a read after the post missed it")
            }
        }
    }
}

/// Coroutines are the default where the harness sees the code under test tell OS threads apart:
/// such code is explored on OS threads, and the report says so.
@Suite(
    "Coroutines: code that tells OS threads apart runs on OS threads",
    .disabled(if: watchMissing, "coroutines are not the default here (Darwin, a sanitizer, another processor)"))
struct ThreadIdentityWatchTests {
    private static let options = ExplorationOptions(strategy: .random, schedules: 200, seed: 1)

    @Test(
        "a read keyed by pthread_self or Thread.current misses another thread's post on the default backend",
        arguments: ["pthread_self", "Thread.current"])
    func keyedByThread(function: String) throws {
        let key: @Sendable () -> UInt = function == "pthread_self" ? pthreadSelfKey : currentThreadKey
        #expect(Self.options.threads == .coroutines)
        let report = try Harness.run("read your posts", options: Self.options, readsAnotherThreadsPost(key: key))
        let failure = try #require(report.failure, "the missed post went unseen")
        #expect("\(failure.reason)".contains("a read after the post missed it"), "\(failure.reason)")
        let fallback = try #require(report.osThreadFallback, "the exploration did not say it left coroutines")
        #expect(fallback.schedule == 0)
        // Foundation asks for `Thread.current` with whichever of the functions it calls first.
        guard case .threadIdentity(_, let called, let place?) = fallback.reason,
            function != "pthread_self" || called == .pthreadSelf
        else {
            Issue.record("expected a call of \(function) with a place, got \(fallback.reason)")
            return
        }
        #expect(place.file == "ThreadIdentityWatchTests.swift", "\(place)")
        #expect("\(fallback)".hasPrefix("ran on OS threads from schedule 0: T"), "\(fallback)")
        #expect("\(fallback)".contains("calls \(called.rawValue) at ThreadIdentityWatchTests.swift:"), "\(fallback)")
    }

    /// The overtaking read keys its queue by `pthread_self`, and went uncaught on coroutines.
    @Test("the generated scenarios catch the overtaking read on the default backend, on OS threads")
    func overtakingRead() throws {
        let mutant = try #require(GeneratedMutant.all.first { $0.summary.contains("overtakes") })
        let report = try mutant.generated(mutant.name, mutant.options)
        #expect(mutant.options.exploration.threads == .coroutines)
        let failure = try #require(report.failure, "\(mutant) survived \(report.scenariosRun) generated scenarios")
        #expect(failure.reason.hasPrefix("not linearizable"), "\(failure.reason)")
        let fallback = try #require(report.osThreadFallback, "the test did not say it left coroutines")
        guard case .threadIdentity(_, .pthreadSelf, let place) = fallback.reason else {
            Issue.record("expected pthread_self, got \(fallback.reason)")
            return
        }
        #expect(place?.file == "OvertakingReadWriteCoordinator.swift", "\(String(describing: place))")
    }

    /// The fallback is never silent: a failure found after it carries a note saying so, and
    /// the run's summary has a line for it whether the exploration failed or passed.
    @Test("the fallback is a note on the failure and a line under the run's summary, failing or passing")
    func fallbackIsReported() throws {
        let run = RunState()
        let options = ExplorationOptions(strategy: .random, schedules: 200, seed: 1, keepsFailures: false)
        func campaign(_ name: String) -> Campaign {
            Campaign(name, .explore, sourceLocation: #_sourceLocation, environment: EnvironmentSnapshot([:]), run: run)
        }
        let fallbackNote = "ran on OS threads from schedule 0: T"
        withKnownIssue {
            _ = campaign("failing after the fallback").explore(options, readsAnotherThreadsPost(key: pthreadSelfKey))
        } matching: { issue in
            let text = "\(issue)"
            return text.contains("a read after the post missed it") && text.contains(fallbackNote)
                && text.contains("calls pthread_self at ThreadIdentityWatchTests.swift:")
        }
        let passing = try #require(
            campaign("passing after the fallback").explore(options) { scenario in
                let keys = AtomicBox<Set<UInt>>([])
                for _ in 0..<2 {
                    scenario.spawn { keys.update { _ = $0.insert(pthreadSelfKey()) } }
                }
            })
        #expect(passing.failure == nil && passing.schedulesRun == 200)
        let summary = CampaignSummary.table(run.entries)
        for name in ["failing after the fallback", "passing after the fallback"] {
            #expect(summary.contains("\n\(name): \(fallbackNote)"), "\(summary)")
        }
    }

    /// A `Synchronization.Mutex` records its owner's OS thread: held by one coroutine across a
    /// scheduling point and then waited for by another on the same host, the kernel would call
    /// it a recursive lock and the process would trap. The wait ends the execution instead,
    /// and on OS threads the waiting thread is reported as stalled in a lock the harness does
    /// not control, as it was before coroutines.
    @Test("a Synchronization.Mutex held across a scheduling point runs on OS threads, reported as a stall")
    func mutexHeldAcrossAPoint() throws {
        let options = ExplorationOptions(
            strategy: .exhaustive(preemptionBound: 1), schedules: 20, seed: 1, stallTimeout: .seconds(1))
        let report = try Harness.run("mutex held across a point", options: options) { scenario in
            let mutex = Mutex(0)
            let flag = SeamAtomic(false)
            for _ in 0..<2 {
                scenario.spawn {
                    mutex.withLock { value in
                        value += 1
                        flag.store(true)
                    }
                }
            }
        }
        let failure = try #require(report.failure, "the wait for the held mutex went unseen")
        #expect("\(failure.reason)".contains("Synchronization.Mutex"), "\(failure.reason)")
        let fallback = try #require(report.osThreadFallback, "the exploration did not say it left coroutines")
        guard case .threadIdentity(_, .lockOwnedByOSThread, let place?) = fallback.reason else {
            Issue.record("expected a wait for a lock owned by the OS thread, with a place; got \(fallback.reason)")
            return
        }
        #expect(place.file == "ThreadIdentityWatchTests.swift", "\(place)")
        #expect("\(fallback)".contains(" for a lock that records its owner's OS thread"), "\(fallback)")
    }

    /// An execution that leaves coroutines part-way is run again from its start: its strategy
    /// restarted (or a copy from before it ran, for a strategy that cannot restart), so that it
    /// takes the schedule an exploration on OS threads takes. Each thread makes choices before
    /// one of them asks for `pthread_self`; a strategy that went on from where the first run
    /// left it would choose differently.
    @Test(
        "an execution run again on OS threads takes the schedule it takes on OS threads from the start",
        arguments: [
            Strategy.random, .pct(depth: 3), .pos, .surw, .exhaustive(preemptionBound: 2), .guided
        ])
    func rerunTakesTheSameSchedule(strategy: Strategy) throws {
        func firstSchedule(_ threads: ScenarioThreads) throws -> ExplorationReport {
            let options = ExplorationOptions(strategy: strategy, schedules: 1, seed: 7, threads: threads)
            return try Harness.run("choices, then pthread_self", options: options) { scenario in
                let counter = SeamAtomic(0)
                for thread in 0..<3 {
                    scenario.spawn {
                        for _ in 0..<4 { counter.store(counter.load() + 1) }
                        if thread == 2 { _ = pthreadSelfKey() }
                        counter.store(counter.load() + 1)
                    }
                }
            }
        }
        let coroutines = try firstSchedule(.coroutines)
        let osThreads = try firstSchedule(.os)
        #expect(coroutines.osThreadFallback?.schedule == 0, "\(String(describing: coroutines.osThreadFallback))")
        let rerun = try #require(coroutines.lastSchedule).description
        #expect(rerun == (try #require(osThreads.lastSchedule)).description)
    }

    /// What the seam covers needs no OS thread: the exploration stays on coroutines, whose
    /// threads share one in each execution.
    @Test("a scenario that uses only the seam stays on coroutines")
    func seamOnlyStays() throws {
        let report = try Harness.run("seam only", options: Self.options) { scenario in
            let handles = AtomicBox<Set<UInt>>([])
            let mutex = SeamMutex()
            let counter = SeamAtomic(0)
            for _ in 0..<3 {
                scenario.spawn {
                    handles.update { _ = $0.insert(UInt(cshim_thread_self())) }
                    mutex.withLock { counter.store(counter.load() + 1) }
                }
            }
            scenario.joinAll()
            Harness.check(counter.load() == 3, "an increment was lost")
            Harness.check(handles.load().count == 1, "the threads ran on \(handles.load().count) OS threads")
        }
        #expect(report.failure == nil, "\(String(describing: report.failure))")
        #expect(report.schedulesRun == 200)
        #expect(report.osThreadFallback == nil, "\(String(describing: report.osThreadFallback))")
    }
}
