import Harness
import Primitives

/// What the limiter scenarios need of a concurrency limiter.
public protocol AsyncLimiting: Sendable {
    /// Runs `body` once fewer than the limit are in flight; throws `CancellationError`
    /// without running it when cancelled while waiting.
    func run(_ body: @Sendable () async throws -> Void) async throws
    /// Bodies running now.
    var inFlightCount: Int { get }
    /// Tasks waiting for a slot.
    var waitingCount: Int { get }
    /// The limiter's owner lets go of it while tasks may still wait (the seed's deinit).
    func ownerReleased()
}

/// The real ``ConcurrencyLimiter`` as the scenarios see it.
public struct LiveConcurrencyLimiter: AsyncLimiting {
    private let limiter: ConcurrencyLimiter

    /// A limiter of `concurrency` slots.
    public init(concurrency: Int) { limiter = ConcurrencyLimiter(concurrency: concurrency) }

    public func run(_ body: @Sendable () async throws -> Void) async throws { try await limiter.run(body) }
    public var inFlightCount: Int { limiter.inFlightCount }
    public var waitingCount: Int { limiter.waitingCount }
    /// Nothing to do: every waiting `run` holds the limiter, so it cannot go away.
    public func ownerReleased() {}
}

/// Scenarios for the async primitives.
public enum AsyncScenarios {
    final class Tally: @unchecked Sendable {
        let inside = SeamAtomic(0)
        let maximum = SeamAtomic(0)
        let cancelledBodies = SeamAtomic(0)
    }

    /// Four tasks through two slots while two of them are cancelled at whatever point the
    /// schedule puts the cancellation: never more than two bodies at once, no task that
    /// threw `CancellationError` ran its body, and every slot comes back.
    public static func limiterBoundUnderCancellation(_ limiter: @escaping @Sendable () -> any AsyncLimiting)
        -> @Sendable (Scenario) -> Void
    {
        { scenario in
            let limiter = limiter()
            let tally = Tally()
            let tasks = (0..<4).map { _ in
                scenario.task {
                    let ranBody = SeamAtomic(false)
                    do {
                        try await limiter.run {
                            ranBody.store(true)
                            let now = tally.inside.add(1)
                            _ = tally.maximum.update { $0 = max($0, now) }
                            await Task.yield()
                            tally.inside.add(-1)
                        }
                    } catch is CancellationError {
                        if ranBody.load() { tally.cancelledBodies.add(1) }
                    }
                }
            }
            tasks[2].cancel()
            tasks[3].cancel()
            scenario.joinAll()
            Harness.check(tally.maximum.load() <= 2, "\(tally.maximum.load()) bodies ran at once through 2 slots")
            Harness.check(tally.cancelledBodies.load() == 0, "a task cancelled while waiting ran its body")
            Harness.check(
                limiter.inFlightCount == 0 && limiter.waitingCount == 0,
                "slots not returned: \(limiter.inFlightCount) in flight, \(limiter.waitingCount) waiting")
        }
    }

    /// The limiter's owner lets go of it while two tasks wait for its one slot, held by a
    /// third: none of them may run without a slot.
    public static func limiterReleasedWhileWaiting(_ limiter: @escaping @Sendable () -> any AsyncLimiting)
        -> @Sendable (Scenario) -> Void
    {
        { scenario in
            let limiter = limiter()
            let tally = Tally()
            let (gate, open) = AsyncCondition.makeCondition()
            let body: @Sendable () async throws -> Void = {
                let now = tally.inside.add(1)
                _ = tally.maximum.update { $0 = max($0, now) }
                try await gate.wait()
                tally.inside.add(-1)
            }
            scenario.task { try await limiter.run(body) }
            while limiter.inFlightCount < 1 { Seam.yield() }
            for _ in 0..<2 {
                scenario.task { try? await limiter.run(body) }
            }
            while limiter.waitingCount < 2 { Seam.yield() }
            limiter.ownerReleased()
            open.signal()
            scenario.joinAll()
            Harness.check(tally.maximum.load() <= 1, "\(tally.maximum.load()) bodies ran at once through 1 slot")
        }
    }

    /// Admission is first in, first out: with the slot held, tasks queue one after
    /// another, and are admitted in that order.
    public static func limiterIsFIFO(_ limiter: @escaping @Sendable () -> any AsyncLimiting)
        -> @Sendable (Scenario) -> Void
    {
        { scenario in
            let limiter = limiter()
            let (gate, open) = AsyncCondition.makeCondition()
            let order = AtomicBox<[Int]>([])
            scenario.task { try await limiter.run { try await gate.wait() } }
            while limiter.inFlightCount < 1 { Seam.yield() }
            for index in 0..<3 {
                scenario.task { try await limiter.run { order.update { $0.append(index) } } }
                while limiter.waitingCount < index + 1 { Seam.yield() }
            }
            open.signal()
            scenario.joinAll()
            Harness.check(order.load() == [0, 1, 2], "admitted in the order \(order.load())")
        }
    }

    /// No lost wake-up: every waiter of a condition is released by one signal, whatever
    /// the order of waits, the signal and a cancellation; the cancelled waiter ends too.
    @Sendable public static func conditionReleasesEveryWaiter(_ scenario: Scenario) {
        let (condition, signal) = AsyncCondition.makeCondition()
        let released = SeamAtomic(0)
        let cancelledEnded = SeamAtomic(false)
        for _ in 0..<2 {
            scenario.task {
                try await condition.wait()
                released.add(1)
            }
        }
        let cancelled = scenario.task {
            _ = try? await condition.wait()
            cancelledEnded.store(true)
        }
        scenario.spawn { signal.signal() }
        cancelled.cancel()
        scenario.joinAll()
        Harness.check(released.load() == 2, "\(released.load()) of 2 waiters released")
        Harness.check(cancelledEnded.load(), "the cancelled waiter never ended")
        Harness.check(condition.waiterCount == 0, "\(condition.waiterCount) waiters left")
    }

    /// A timeout on virtual time: a critical section held for an hour by one task makes
    /// another thread's timed entry time out after exactly its timeout.
    @Sendable public static func timeoutOnVirtualTime(_ scenario: Scenario) {
        let section = CriticalSection()
        let entered = SeamAtomic(false)
        let holder = scenario.spawn {
            section.execute {
                entered.store(true)
                Seam.sleep(for: .seconds(3600))
            }
        }
        while !entered.load() { Seam.yield() }
        let start = Seam.now()
        let outcome = section.execute(timeout: .seconds(5)) {}
        Harness.check(outcome.didTimeOut, "entered a section held for an hour")
        Harness.check(Seam.now() == start.advanced(by: .seconds(5)), "timed out at +\(start.duration(to: Seam.now()))")
        holder.join()
    }
}

extension AsyncScenarios {
    /// `GCD.async(delay:)` under the harness: delayed work runs in deadline order after
    /// undelayed work, on the virtual clock.
    @Sendable public static func dispatchDelaysOnVirtualTime(_ scenario: Scenario) {
        let order = AtomicBox<[Int]>([])
        let start = Seam.now()
        for delay in [3, 1] {
            GCD.async(delay: .seconds(delay)) { order.update { $0.append(delay) } }
        }
        GCD.async { order.update { $0.append(0) } }
        Seam.sleep(for: .seconds(5))
        Harness.check(order.load() == [0, 1, 3], "dispatched work ran in the order \(order.load())")
        Harness.check(
            Seam.now() == start.advanced(by: .seconds(5)), "the clock is at +\(start.duration(to: Seam.now()))")
    }

    /// A coordinator and a worker used from tasks: each task's enqueued writes apply in its
    /// order and its next read sees them; work submitted from tasks runs on the worker, once.
    @Sendable public static func coordinatorAndWorkerFromTasks(_ scenario: Scenario) {
        let coordinator = ReadWriteCoordinator()
        let log = AtomicBox<[Int]>([])
        let worker = WorkerThread()
        let ranOnWorker = SeamAtomic(0)
        do {
            _ = try worker.start()
        } catch {
            Harness.check(false, "start failed: \(error)")
        }
        for task in 0..<2 {
            scenario.task {
                for value in [task * 10, task * 10 + 1] {
                    coordinator.enqueueWrite { log.update { $0.append(value) } }
                }
                let seen = coordinator.read { log.load().filter { $0 / 10 == task } }
                Harness.check(seen == [task * 10, task * 10 + 1], "task \(task) read its writes as \(seen)")
                let (done, markDone) = AsyncCondition.makeCondition()
                try worker.submit {
                    if worker.isCurrent { ranOnWorker.add(1) }
                    markDone.signal()
                }
                try await done.wait()
            }
        }
        scenario.joinAll()
        worker.stop()
        Harness.check(ranOnWorker.load() == 2, "\(ranOnWorker.load()) of 2 submitted items ran on the worker")
    }
}
