import CShim
import Primitives
import Testing

@Suite("Runtime seam")
struct SeamTests {
    @Test("a mutex excludes threads spawned through the seam")
    func mutexExcludes() throws {
        let mutex = SeamMutex()
        let counter = UnsafeCounter()
        let threads = try (0..<4).map { _ in
            try Seam.spawnThread {
                for _ in 0..<10_000 { mutex.withLock { counter.value += 1 } }
            }.get()
        }
        for thread in threads { try thread.join() }
        #expect(counter.value == 40_000)
    }

    @Test("a recursive mutex is re-acquired by its holder")
    func recursiveMutex() {
        let mutex = SeamMutex(kind: .recursive)
        let depth = mutex.withLock { mutex.withLock { mutex.withLock { 3 } } }
        #expect(depth == 3)
        #expect(mutex.tryLock())
        mutex.unlock()
    }

    @Test("tryLock fails while another thread holds the mutex")
    func tryLockContended() throws {
        let mutex = SeamMutex()
        mutex.lock()
        let acquired = UnsafeCounter()
        try Seam.spawnThread {
            if mutex.tryLock() {
                acquired.value = 1
                mutex.unlock()
            }
        }.get().join()
        mutex.unlock()
        #expect(acquired.value == 0)
    }

    @Test("a timed condition wait times out on the monotonic clock")
    func conditionTimesOut() {
        let mutex = SeamMutex()
        let condition = SeamCondition()
        let start = Seam.now()
        let result = mutex.withLock {
            condition.wait(on: mutex, until: { false }, deadline: start.advanced(by: .milliseconds(20)))
        }
        #expect(result == false)
        #expect(Seam.now() >= start.advanced(by: .milliseconds(20)))
    }

    @Test("a condition wait with a predicate sees the signalled state")
    func conditionSignals() throws {
        let mutex = SeamMutex()
        let condition = SeamCondition()
        let ready = UnsafeCounter()
        let signaller = try Seam.spawnThread {
            mutex.withLock { ready.value = 1 }
            condition.signal()
        }.get()
        mutex.withLock { condition.wait(on: mutex, until: { ready.value == 1 }) }
        try signaller.join()
        #expect(ready.value == 1)
    }

    @Test("atomic updates are never lost")
    func atomicUpdates() throws {
        let cell = SeamAtomic(0)
        let threads = try (0..<4).map { _ in
            try Seam.spawnThread {
                for _ in 0..<10_000 { cell.add(1) }
            }.get()
        }
        for thread in threads { try thread.join() }
        #expect(cell.load() == 40_000)
        #expect(cell.exchange(7) == 40_000)
        #expect(cell.compareExchange(expected: 7, desired: 9) == (true, 7))
        #expect(cell.compareExchange(expected: 7, desired: 1) == (false, 9))
        #expect(cell.setBits(0b110) == 9)
        #expect(cell.load() == 0b1111)
    }

    @Test("every seam operation reaches an installed controller, on spawned threads too")
    func everyOperationIsRecorded() throws {
        let recorder = RecordingController()
        try recorder.record {
            let mutex = SeamMutex()
            let condition = SeamCondition()
            let cell = SeamAtomic(false)
            let thread = try Seam.spawnThread {
                mutex.withLock { cell.store(true) }
                condition.broadcast()
                Seam.yield()
                Seam.cancellationPoint()
            }.get()
            mutex.withLock { condition.wait(on: mutex, until: { cell.load() }) }
            #expect(mutex.tryLock())
            condition.signal()
            #expect(condition.wait(on: mutex, deadline: Seam.now()) == .timedOut)
            mutex.unlock()
            Seam.sleep(for: .zero)
            try thread.join()
            let cancelled = try Seam.spawnThread {}.get()
            try cancelled.cancel()
            try cancelled.join()
        }
        let kinds = recorder.kinds
        let expected: Set<RecordedOperation.Kind> = [
            .lock, .tryLock, .unlock, .wait, .signal, .broadcast, .atomic, .spawn, .start,
            .exit, .join, .cancel, .cancellationPoint, .yield, .now, .sleep
        ]
        #expect(expected.isSubset(of: kinds), "missing: \(expected.subtracting(kinds))")
        let spawnedThreadOperations = recorder.operations.filter { $0.thread == SeamThreadID(rawValue: 1) }
        #expect(spawnedThreadOperations.contains { $0.kind == .atomic })
        #expect(spawnedThreadOperations.first?.kind == .start)
        #expect(spawnedThreadOperations.last?.kind == .exit)
    }

    @Test("a cancelled thread tells its controller it exits, and the seam keeps nothing of it")
    func cancelledThreadReleasesSeamState() throws {
        for _ in 0..<200 {
            weak var weakRecorder: RecordingController?
            try {
                let recorder = RecordingController()
                weakRecorder = recorder
                try recorder.record {
                    let thread = try Seam.spawnThread {
                        while true { Seam.cancellationPoint() }
                    }.get()
                    while !recorder.kinds.contains(.start) { Seam.yield() }
                    try thread.cancel()
                    try thread.join()
                }
                #expect(recorder.operations.filter { $0.kind == .exit }.count == 1)
            }()
            #expect(weakRecorder == nil)
        }
    }

    @Test("a cancelled thread started with a C entry leaks nothing, in any build")
    func cancelledEntryThreadLeaksNothing() throws {
        let counter = LifetimeCounter()
        for _ in 0..<200 {
            let argument = Unmanaged.passRetained(counter.make()).toOpaque()
            let thread = try Seam.spawnThread(
                entry: { argument in
                    cshim_run_with_cleanup(
                        { Unmanaged<LifetimeCounter.Tracked>.fromOpaque($0!).release() }, argument,
                        { _ in while true { Seam.cancellationPoint() } }, nil
                    )
                }, argument: argument
            ).get()
            try thread.cancel()
            try thread.join()
        }
        #expect(counter.createdCount == 200)
        #expect(counter.liveCount == 0)
    }

    /// Swift copies a closure to call it; in unoptimized builds that copy lives in a frame
    /// that cancellation unwinds without releasing it, so only optimized builds are leak-free.
    @Test(
        "a cancelled thread releases what its body captured (optimized builds)",
        .enabled(if: BuildConfiguration.isOptimized, "unoptimized builds keep the copy Swift makes to call a closure")
    )
    func cancelledThreadReleasesCaptures() throws {
        let counter = LifetimeCounter()
        for _ in 0..<200 {
            let tracked = counter.make()
            let started = SeamAtomic(false)
            let thread = try Seam.spawnThread { [tracked] in
                _ = tracked
                started.store(true)
                while true { Seam.cancellationPoint() }
            }.get()
            while !started.load() { Seam.yield() }
            try thread.cancel()
            try thread.join()
        }
        #expect(counter.createdCount == 200)
        #expect(counter.liveCount == 0)
    }

    @Test("unlocking a mutex the caller does not hold traps")
    func unlockingUnheldMutexTraps() async {
        await #expect(processExitsWith: .failure) {
            SeamMutex().unlock()
        }
    }

    @Test("what a thread's body captured is released on the thread, under its controller, before it exits")
    func bodyReleasedBeforeExit() throws {
        let recorder = RecordingController()
        try recorder.record {
            let spawned = SeamAtomic(false)
            // The body holds the only reference to `note` once the spawning call has returned
            // and let go of the body: the thread waits for that.
            let thread = try Seam.spawnThread { [note = StoresWhenReleased()] in
                while !spawned.load() { Seam.yield() }
                Seam.yield()
                withExtendedLifetime(note) {}
            }.get()
            spawned.store(true)
            try thread.join()
        }
        let steps = recorder.operations.filter { $0.thread == SeamThreadID(rawValue: 1) }.map(\.kind)
        #expect(steps.suffix(3) == [.yield, .atomic, .exit], "\(steps)")
    }
}

/// Stores to a seam atomic when it goes away: a deinit that is a seam operation.
private final class StoresWhenReleased: Sendable {
    private let cell = SeamAtomic(0)

    deinit { cell.store(1) }
}

/// A plain counter shared between threads that synchronize some other way.
final class UnsafeCounter: @unchecked Sendable {
    var value = 0
}
