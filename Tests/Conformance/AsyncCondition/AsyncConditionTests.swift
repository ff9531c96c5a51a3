import Harness
import Primitives
import Testing

@Suite("AsyncCondition")
struct AsyncConditionTests {
    /// Starts a task waiting on `condition`, returning once it is registered as a waiter.
    private func startWaiter(on condition: AsyncCondition) async -> Task<Void, any Error> {
        let before = condition.waiterCount
        let task = Task { try await condition.wait() }
        await yieldUntil { condition.waiterCount == before + 1 }
        return task
    }

    @Test("a signal sent before the wait releases it at once")
    func signalBeforeWait() async throws {
        let (condition, signal) = AsyncCondition.makeCondition()
        #expect(!condition.isSignalled)
        signal.signal()
        #expect(condition.isSignalled)
        try await condition.wait()
        #expect(condition.waiterCount == 0)
    }

    @Test("a signal sent while a task waits releases it")
    func signalAfterWait() async throws {
        let (condition, signal) = AsyncCondition.makeCondition()
        let waiter = await startWaiter(on: condition)
        #expect(condition.waiterCount == 1)
        signal.signal()
        try await waiter.value
        #expect(condition.waiterCount == 0)
    }

    /// The waiter's jobs run only when the test says so, so it has certainly suspended (its
    /// continuation registered) before the signal.
    @Test("a signal sent after the waiter suspended resumes it")
    func signalAfterSuspension() async throws {
        let (condition, signal) = AsyncCondition.makeCondition()
        let executor = QueueingTaskExecutor()
        let released = SeamAtomic(false)
        let waiter = Task(executorPreference: executor) {
            try await condition.wait()
            released.store(true)
        }
        executor.runUntilIdle()
        #expect(condition.waiterCount == 1)
        #expect(!released.load())
        signal.signal()
        executor.runUntilIdle()
        #expect(released.load())
        try await waiter.value
    }

    @Test("one signal releases every waiter, current and future; a second signal does nothing")
    func signalIsABroadcastAndIdempotent() async throws {
        let (condition, signal) = AsyncCondition.makeCondition()
        var waiters: [Task<Void, any Error>] = []
        for _ in 0..<10 { waiters.append(await startWaiter(on: condition)) }
        #expect(condition.waiterCount == 10)
        signal.signal()
        signal.signal()
        for waiter in waiters { try await waiter.value }
        try await condition.wait()
        let copy = condition
        try await copy.wait()
        #expect(signal.isSignalled)
    }

    @Test("a waiter whose task is cancelled throws CancellationError; the others still wait for the signal")
    func cancelledWaiterThrows() async throws {
        let (condition, signal) = AsyncCondition.makeCondition()
        let cancelled = await startWaiter(on: condition)
        let other = await startWaiter(on: condition)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(condition.waiterCount == 1)
        #expect(!condition.isSignalled)
        signal.signal()
        try await other.value
    }

    @Test("a task cancelled before it waits throws, unless the signal was sent already")
    func cancelledBeforeWaiting() async throws {
        let (condition, signal) = AsyncCondition.makeCondition()
        let unsignalled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await condition.wait()
        }
        await #expect(throws: CancellationError.self) { try await unsignalled.value }
        #expect(condition.waiterCount == 0)
        signal.signal()
        let signalled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await condition.wait()
        }
        try await signalled.value
    }

    @Test("the waiter resumes in its caller's actor isolation")
    @MainActor
    func waitKeepsCallerIsolation() async throws {
        let (condition, signal) = AsyncCondition.makeCondition()
        let signaller = Task.detached {
            await yieldUntil { condition.waiterCount == 1 }
            signal.signal()
        }
        try await condition.wait()
        MainActor.assertIsolated()
        await signaller.value
    }

    @Test("waits and signals from many tasks at once release everyone exactly once")
    func concurrentWaitsAndSignals() async throws {
        for _ in 0..<50 {
            let (condition, signal) = AsyncCondition.makeCondition()
            let released = SeamAtomic(0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        if index % 4 == 0 { signal.signal() }
                        try await condition.wait()
                        released.add(1)
                    }
                }
                try await group.waitForAll()
            }
            #expect(released.load() == 8)
            #expect(condition.waiterCount == 0)
        }
    }

    @Test("under a harness, a wait raced against a timeout due at once on SeamClock ends either way")
    func waitRacingDueTimeout() throws {
        let outcomes = try exploredOutcomes("wait racing a due timeout") { scenario in
            let (condition, signal) = AsyncCondition.makeCondition()
            let signalled = SeamAtomic(false)
            scenario.task {
                let released = await withTaskGroup(of: Bool.self) { group in
                    group.addTask { (try? await condition.wait()) != nil }
                    group.addTask {
                        try? await Task.sleep(for: .zero, clock: SeamClock())
                        return false
                    }
                    let first = await group.next() ?? false
                    group.cancelAll()
                    return first
                }
                signalled.store(released)
            }
            scenario.spawn { signal.signal() }
            scenario.joinAll()
            return signalled.load()
        }
        #expect(outcomes == [true, false])
    }

    @Test("its lock and resume operations go through the runtime seam")
    func operationsGoThroughTheSeam() {
        let recorder = RecordingController()
        let released = SeamAtomic(false)
        recorder.record {
            let executor = QueueingTaskExecutor()
            let (condition, signal) = AsyncCondition.makeCondition()
            Task(executorPreference: executor) {
                try await condition.wait()
                released.store(true)
            }
            executor.runUntilIdle()
            #expect(condition.waiterCount == 1)
            signal.signal()
            executor.runUntilIdle()
        }
        #expect(released.load())
        let conditionOperations = recorder.operations.filter {
            $0.location?.fileID.hasSuffix("AsyncCondition+Storage.swift") == true
        }
        let kinds = Set(conditionOperations.map(\.kind))
        #expect(kinds.isSuperset(of: [.lock, .unlock]), "recorded: \(kinds)")
        #expect(
            recorder.operations.contains {
                $0.kind == .resume && $0.location?.fileID.hasSuffix("TaskWaitQueue.swift") == true
            })
    }
}
