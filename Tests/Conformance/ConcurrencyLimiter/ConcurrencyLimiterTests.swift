import Primitives
import Synchronization
import Harness
import Testing

@Suite("ConcurrencyLimiter")
struct ConcurrencyLimiterTests {
    /// Occupies one slot of `limiter` with a body that waits for `release`; returns once
    /// the body is running.
    private func occupySlot(of limiter: ConcurrencyLimiter, until release: AsyncCondition) async -> Task<
        Void, any Error
    > {
        let before = limiter.inFlightCount
        let task = Task { try await limiter.run { try await release.wait() } }
        await yieldUntil { limiter.inFlightCount == before + 1 }
        return task
    }

    /// Starts a task running `body` through `limiter`, returning once it waits for a slot.
    private func enqueueWaiter<Result: Sendable>(
        on limiter: ConcurrencyLimiter,
        _ body: @escaping @Sendable () async throws -> Result
    ) async -> Task<Result, any Error> {
        let before = limiter.waitingCount
        let task = Task { try await limiter.run(body) }
        await yieldUntil { limiter.waitingCount == before + 1 }
        return task
    }

    @Test("admits up to its concurrency at once, and makes the next task wait")
    func admitsUpToConcurrency() async throws {
        let limiter = ConcurrencyLimiter(concurrency: 3)
        let (release, releaseAll) = AsyncCondition.makeCondition()
        let holders = [
            await occupySlot(of: limiter, until: release),
            await occupySlot(of: limiter, until: release),
            await occupySlot(of: limiter, until: release)
        ]
        let ran = SeamAtomic(false)
        let waiter = await enqueueWaiter(on: limiter) { ran.store(true) }
        #expect(limiter.inFlightCount == 3)
        #expect(limiter.waitingCount == 1)
        #expect(ran.load() == false)
        releaseAll.signal()
        for holder in holders { try await holder.value }
        try await waiter.value
        #expect(ran.load())
        #expect(limiter.inFlightCount == 0)
        #expect(limiter.waitingCount == 0)
    }

    @Test("the body runs on the calling task and its result and errors come back")
    func bodyRunsOnCallingTask() async throws {
        struct Failure: Error {}
        enum Marker { @TaskLocal static var value = 0 }
        let limiter = ConcurrencyLimiter(concurrency: 1)
        let seen = try await Marker.$value.withValue(42) {
            try await limiter.run { Marker.value }
        }
        #expect(seen == 42)
        await #expect(throws: Failure.self) {
            try await limiter.run { throw Failure() }
        }
        #expect(limiter.inFlightCount == 0)
        #expect(try await limiter.run { "admitted again" } == "admitted again")
    }

    @Test("the body runs in the caller's actor isolation")
    @MainActor
    func bodyKeepsCallerIsolation() async throws {
        let limiter = ConcurrencyLimiter(concurrency: 1)
        let onMainActor = try await limiter.run {
            MainActor.assertIsolated()
            return true
        }
        #expect(onMainActor)
    }

    @Test("waiting tasks are admitted in the order they queued")
    func admissionIsFIFO() async throws {
        let limiter = ConcurrencyLimiter(concurrency: 1)
        let (release, releaseHolder) = AsyncCondition.makeCondition()
        let holder = await occupySlot(of: limiter, until: release)
        let order = Mutex<[Int]>([])
        var waiters: [Task<Void, any Error>] = []
        for index in 0..<20 {
            waiters.append(await enqueueWaiter(on: limiter) { order.withLock { $0.append(index) } })
        }
        #expect(limiter.waitingCount == 20)
        releaseHolder.signal()
        try await holder.value
        for waiter in waiters { try await waiter.value }
        #expect(order.withLock { $0 } == Array(0..<20))
    }

    @Test("with concurrency 1 it excludes like a mutex")
    func concurrencyOneIsAMutex() async throws {
        final class Unprotected: @unchecked Sendable { var value = 0 }
        let limiter = ConcurrencyLimiter(concurrency: 1)
        let counter = Unprotected()
        let gauge = ConcurrencyGauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await limiter.run {
                        gauge.enter()
                        let read = counter.value
                        await Task.yield()
                        counter.value = read + 1
                        gauge.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(counter.value == 50)
        #expect(gauge.maximum == 1)
    }

    @Test("a task cancelled while waiting leaves the queue, never runs and takes no slot")
    func cancelWhileWaiting() async throws {
        let limiter = ConcurrencyLimiter(concurrency: 1)
        let (release, releaseHolder) = AsyncCondition.makeCondition()
        let holder = await occupySlot(of: limiter, until: release)
        let ran = SeamAtomic(false)
        let waiter = await enqueueWaiter(on: limiter) { ran.store(true) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(limiter.waitingCount == 0)
        #expect(limiter.inFlightCount == 1)
        releaseHolder.signal()
        try await holder.value
        #expect(limiter.inFlightCount == 0)
        #expect(ran.load() == false)
        #expect(try await limiter.run { limiter.inFlightCount } == 1)
    }

    /// The tasks' jobs run only when the test says so, so the waiter has certainly suspended
    /// before it is cancelled, and the holder certainly runs when the waiter is cancelled.
    @Test("a suspended waiter that is cancelled is resumed with CancellationError and its slot stays with the holder")
    func cancelSuspendedWaiter() async throws {
        let limiter = ConcurrencyLimiter(concurrency: 1)
        let executor = QueueingTaskExecutor()
        let (release, releaseHolder) = AsyncCondition.makeCondition()
        let holder = Task(executorPreference: executor) { try await limiter.run { try await release.wait() } }
        let ran = SeamAtomic(false)
        let waiter = Task(executorPreference: executor) { try await limiter.run { ran.store(true) } }
        executor.runUntilIdle()
        #expect(limiter.inFlightCount == 1)
        #expect(limiter.waitingCount == 1)
        waiter.cancel()
        #expect(limiter.waitingCount == 0)
        executor.runUntilIdle()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(limiter.inFlightCount == 1)
        releaseHolder.signal()
        executor.runUntilIdle()
        try await holder.value
        #expect(limiter.inFlightCount == 0)
        #expect(!ran.load())
    }

    @Test("a task cancelled before it calls run never runs its body, even with a slot free")
    func cancelledBeforeEntry() async {
        let limiter = ConcurrencyLimiter(concurrency: 2)
        let ran = SeamAtomic(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await limiter.run { ran.store(true) }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ran.load() == false)
        #expect(limiter.inFlightCount == 0)
    }

    @Test("a cancelled waiter leaves no stale wake-up: the slot goes to the next live waiter, once")
    func cancelledWaiterLeavesNoStaleWakeUp() async throws {
        let limiter = ConcurrencyLimiter(concurrency: 1)
        let gauge = ConcurrencyGauge()
        let (release, releaseHolder) = AsyncCondition.makeCondition()
        let holder = await occupySlot(of: limiter, until: release)
        let (proceed, letSecondFinish) = AsyncCondition.makeCondition()
        let cancelled = await enqueueWaiter(on: limiter) { gauge.enter() }
        let second = await enqueueWaiter(on: limiter) {
            gauge.enter()
            try await proceed.wait()
            gauge.leave()
        }
        let third = await enqueueWaiter(on: limiter) {
            gauge.enter()
            gauge.leave()
        }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        releaseHolder.signal()
        try await holder.value
        await yieldUntil { gauge.maximum == 1 }
        #expect(limiter.inFlightCount == 1)
        #expect(limiter.waitingCount == 1)
        letSecondFinish.signal()
        try await second.value
        try await third.value
        #expect(gauge.maximum == 1)
        #expect(limiter.inFlightCount == 0)
        #expect(limiter.waitingCount == 0)
    }

    /// Four holders fill the slots while the first half of the tasks queue, then leave, so
    /// that admissions, arrivals and cancellations interleave. Each task is cancelled with
    /// probability 1/2, at a step drawn from the 600 after its creation: before it calls run,
    /// while it waits, while its body runs or after it finished. The seed fixes which tasks
    /// are cancelled and when, relative to the spawning loop.
    @Test(
        "1,000 tasks through 4 slots, about half cancelled at random points: the bound holds and every slot comes back")
    func cancellationStorm() async throws {
        let concurrency = 4
        let taskCount = 1_000
        let limiter = ConcurrencyLimiter(concurrency: concurrency)
        let gauge = ConcurrencyGauge()
        var random = SplitMix64(seed: 0x5EED_0003)
        let bodiesRun = SeamAtomic(0)
        let cancelledUnrun = SeamAtomic(0)
        let (release, releaseHolders) = AsyncCondition.makeCondition()
        var holders: [Task<Void, any Error>] = []
        for _ in 0..<concurrency {
            holders.append(await occupySlot(of: limiter, until: release))
        }
        _ = (0..<concurrency).map { _ in gauge.enter() }

        var tasks: [Task<Void, Never>] = []
        var cancellationsAtStep: [Int: [Int]] = [:]
        for step in 0..<(taskCount + 600) {
            if step < taskCount {
                let yields = Int.random(in: 0...3, using: &random)
                tasks.append(
                    Task {
                        let bodyRan = SeamAtomic(false)
                        do {
                            try await limiter.run {
                                bodyRan.store(true)
                                #expect(gauge.enter() <= concurrency)
                                for _ in 0..<yields { await Task.yield() }
                                gauge.leave()
                            }
                            bodiesRun.add(1)
                        } catch {
                            #expect(error is CancellationError)
                            #expect(!bodyRan.load(), "a task whose run threw CancellationError ran its body")
                            cancelledUnrun.add(1)
                        }
                    })
                if Bool.random(using: &random) {
                    cancellationsAtStep[step + Int.random(in: 0..<600, using: &random), default: []].append(step)
                }
            }
            if step == taskCount / 2 {
                for _ in 0..<concurrency { gauge.leave() }
                releaseHolders.signal()
            }
            for index in cancellationsAtStep.removeValue(forKey: step) ?? [] { tasks[index].cancel() }
            if step >= taskCount || Int.random(in: 0..<4, using: &random) == 0 { await Task.yield() }
        }
        for holder in holders { try await holder.value }
        for task in tasks { await task.value }

        #expect(gauge.maximum <= concurrency)
        #expect(bodiesRun.load() + cancelledUnrun.load() == taskCount)
        #expect(cancelledUnrun.load() >= 50, "too few cancellations landed before admission to exercise them")
        #expect(limiter.inFlightCount == 0)
        #expect(limiter.waitingCount == 0)
        #expect(try await limiter.run { limiter.inFlightCount } == 1)
    }

    @Test("tasks inside run keep the limiter alive, so it cannot go away while they wait")
    func waitersKeepTheLimiterAlive() async throws {
        weak var weakLimiter: ConcurrencyLimiter?
        let (release, releaseHolder) = AsyncCondition.makeCondition()
        let ran = SeamAtomic(0)
        var tasks: [Task<Void, any Error>] = []
        do {
            let limiter = ConcurrencyLimiter(concurrency: 1)
            weakLimiter = limiter
            tasks.append(await occupySlot(of: limiter, until: release))
            for _ in 0..<3 {
                tasks.append(await enqueueWaiter(on: limiter) { ran.add(1) })
            }
        }
        #expect(weakLimiter != nil, "the limiter went away while tasks waited on it")
        #expect(weakLimiter?.waitingCount == 3)
        releaseHolder.signal()
        for task in tasks { try await task.value }
        #expect(ran.load() == 3)
        #expect(weakLimiter == nil, "the limiter outlived the last task that used it")
    }

    @Test("a concurrency below 1 is a programmer error that traps")
    func concurrencyBelowOneTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = ConcurrencyLimiter(concurrency: 0)
        }
    }

    @Test("its lock and resume operations go through the runtime seam")
    func operationsGoThroughTheSeam() throws {
        let recorder = RecordingController()
        let finished = SeamAtomic(0)
        recorder.record {
            let executor = QueueingTaskExecutor()
            let limiter = ConcurrencyLimiter(concurrency: 1)
            let (release, releaseHolder) = AsyncCondition.makeCondition()
            Task(executorPreference: executor) {
                try await limiter.run { try await release.wait() }
                finished.add(1)
            }
            Task(executorPreference: executor) {
                try await limiter.run {}
                finished.add(1)
            }
            executor.runUntilIdle()
            #expect(limiter.waitingCount == 1)
            releaseHolder.signal()
            executor.runUntilIdle()
        }
        #expect(finished.load() == 2)
        let limiterOperations = recorder.operations.filter {
            $0.location?.fileID.hasSuffix("ConcurrencyLimiter.swift") == true
        }
        let kinds = Set(limiterOperations.map(\.kind))
        #expect(kinds.isSuperset(of: [.lock, .unlock]), "recorded: \(kinds)")
        #expect(
            recorder.operations.contains {
                $0.kind == .resume && $0.location?.fileID.hasSuffix("TaskWaitQueue.swift") == true
            })
    }
}
