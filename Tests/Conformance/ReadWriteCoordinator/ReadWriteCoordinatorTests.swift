import Primitives
import Testing

@Suite("ReadWriteCoordinator")
struct ReadWriteCoordinatorTests {
    private struct Failure: Error, Equatable {}

    /// State that only the coordinator under test protects.
    private final class Resource: @unchecked Sendable {
        var value = 0
        var log: [Int] = []
    }

    /// A thread inside a read block of a coordinator, held there until `release()`, which
    /// lets it run `thenInside` (still inside the read), waits for the thread to finish and
    /// returns what `thenInside` returned.
    private struct HeldReader<Result: Sendable> {
        private let thread: StartedThread<Result>
        private let released = Gate()

        init(in coordinator: ReadWriteCoordinator, thenInside: @escaping @Sendable () -> Result) throws {
            let inside = Gate()
            let released = released
            thread = try StartedThread {
                coordinator.read {
                    inside.open()
                    released.wait()
                    return thenInside()
                }
            }
            try #require(inside.wait(), "the reader never got inside")
        }

        func release() throws -> Result {
            released.open()
            return try thread.finish()
        }
    }

    @Test("several reads run at once")
    func readsRunConcurrently() throws {
        let coordinator = ReadWriteCoordinator()
        let firstInside = Gate()
        let secondInside = Gate()
        let first = try StartedThread {
            coordinator.read {
                firstInside.open()
                return secondInside.wait()
            }
        }
        let second = try StartedThread {
            coordinator.read {
                secondInside.open()
                return firstInside.wait()
            }
        }
        #expect(try first.finish(), "the first reader never saw the second inside with it")
        #expect(try second.finish(), "the second reader never saw the first inside with it")
    }

    @Test("a write never overlaps a read or another write (4 threads × 2,000 mixed requests)")
    func writesAreExclusive() throws {
        let coordinator = ReadWriteCoordinator()
        let readers = SeamAtomic(0)
        let writers = SeamAtomic(0)
        let violations = SeamAtomic(0)
        let writesRun = SeamAtomic(0)
        @Sendable func writeBody() {
            if writers.add(1) != 1 || readers.load() != 0 { violations.add(1) }
            writesRun.add(1)
            writers.add(-1)
        }
        let threads = try (0..<4).map { _ in
            try Seam.spawnThread {
                for iteration in 0..<2_000 {
                    switch iteration % 4 {
                    case 0:
                        coordinator.enqueueWrite(writeBody)
                    case 1:
                        coordinator.write(writeBody)
                    default:
                        coordinator.read {
                            readers.add(1)
                            if writers.load() != 0 { violations.add(1) }
                            readers.add(-1)
                        }
                    }
                }
            }.get()
        }
        for thread in threads { try thread.join() }
        coordinator.write {}
        #expect(violations.load() == 0)
        #expect(writesRun.load() == 4_000)
    }

    @Test("queued writes apply in submission order")
    func queuedWritesApplyInOrder() throws {
        let coordinator = ReadWriteCoordinator()
        let resource = Resource()
        let holder = try HeldReader(in: coordinator) {}
        for index in 0..<500 {
            coordinator.enqueueWrite { resource.log.append(index) }
        }
        try holder.release()
        #expect(coordinator.read { resource.log } == Array(0..<500))
    }

    @Test("writes enqueued by several threads apply in each thread's order, none lost")
    func concurrentWritesApplyInOrder() throws {
        let coordinator = ReadWriteCoordinator()
        let resource = Resource()
        let stop = SeamAtomic(false)
        let reader = try Seam.spawnThread {
            while !stop.load() { _ = coordinator.read { resource.log.count } }
        }.get()
        let writers = try (0..<4).map { writer in
            try Seam.spawnThread {
                for index in 0..<500 {
                    coordinator.enqueueWrite { resource.log.append(writer * 1_000 + index) }
                }
            }.get()
        }
        for writer in writers { try writer.join() }
        stop.store(true)
        try reader.join()
        let log = coordinator.read { resource.log }
        #expect(log.count == 2_000)
        for writer in 0..<4 {
            let own = log.filter { $0 / 1_000 == writer }
            #expect(own == Array(writer * 1_000..<writer * 1_000 + 500))
        }
    }

    @Test("a read submitted after enqueueWrite returned, on another thread, observes the write")
    func readAfterEnqueuedWriteObservesIt() throws {
        let coordinator = ReadWriteCoordinator()
        let resource = Resource()
        let published = SeamAtomic(0)
        let stale = SeamAtomic(0)
        let writer = try Seam.spawnThread {
            for value in 1...2_000 {
                coordinator.enqueueWrite { resource.value = value }
                published.store(value)
            }
        }.get()
        let readers = try (0..<2).map { _ in
            try Seam.spawnThread {
                while true {
                    let submittedAfter = published.load()
                    if coordinator.read({ resource.value }) < submittedAfter { stale.add(1) }
                    if submittedAfter == 2_000 { return }
                }
            }.get()
        }
        try writer.join()
        for reader in readers { try reader.join() }
        #expect(stale.load() == 0)
    }

    @Test("a reader arriving behind a queued write waits for it, not only for the active readers")
    func readerQueuedBehindWriteObservesIt() throws {
        let recorder = RecordingController()
        let coordinator = ReadWriteCoordinator()
        let resource = Resource()
        let (insideBefore, lateReader) = try recorder.record {
            let early = try HeldReader(in: coordinator) { resource.value }
            coordinator.enqueueWrite { resource.value = 1 }
            let late = try StartedThread { coordinator.read { resource.value } }
            #expect(recorder.waitUntilBlocked(thread: 2), "thread 2 never waited")
            return (try early.release(), try late.finish())
        }
        #expect(insideBefore == 0, "a reader inside before the write was enqueued saw it")
        #expect(lateReader == 1, "a reader submitted after the write did not observe it")
    }

    @Test("a read nested in a write runs at once; so does a write nested in a write")
    func nestedInWrite() throws {
        let coordinator = ReadWriteCoordinator()
        let resource = Resource()
        let (nested, readInEnqueuedWrite) = try runOnNewThread {
            let nested = coordinator.write {
                resource.value = 1
                let read = coordinator.read { resource.value }
                let written = coordinator.write {
                    resource.value += 1
                    return resource.value
                }
                return [read, written]
            }
            coordinator.enqueueWrite { resource.log.append(coordinator.read { resource.value }) }
            return (nested, coordinator.read { resource.log })
        }
        #expect(nested == [1, 2])
        #expect(readInEnqueuedWrite == [2])
    }

    @Test("a nested read completes while a write is queued behind its enclosing read")
    func nestedReadWhileWriteQueued() throws {
        let coordinator = ReadWriteCoordinator()
        let resource = Resource()
        let reader = try HeldReader(in: coordinator) { coordinator.read { resource.value } }
        coordinator.enqueueWrite { resource.value = 1 }
        #expect(try reader.release() == 0, "the nested read saw a write queued behind its enclosing read")
        // The last reader out runs the queued write before its read returns.
        #expect(resource.value == 1)
    }

    @Test("a write enqueued inside a block runs after that block, without deadlock")
    func enqueueInsideBlocks() throws {
        let coordinator = ReadWriteCoordinator()
        let resource = Resource()
        let (seenInsideRead, log) = try runOnNewThread {
            let seenInsideRead = coordinator.read {
                coordinator.enqueueWrite { resource.log.append(1) }
                return resource.log
            }
            coordinator.write {
                coordinator.enqueueWrite { resource.log.append(3) }
                resource.log.append(2)
            }
            return (seenInsideRead, coordinator.read { resource.log })
        }
        #expect(seenInsideRead == [])
        #expect(log == [1, 2, 3])
    }

    @Test("errors are rethrown, typed, and the coordinator is left usable")
    func rethrowsAndLeaves() throws {
        let coordinator = ReadWriteCoordinator()
        let resource = Resource()
        do throws(Failure) {
            try coordinator.read { () throws(Failure) in
                coordinator.enqueueWrite { resource.value = 1 }
                throw Failure()
            }
            Issue.record("read did not rethrow")
        } catch {
            #expect(error == Failure())
        }
        #expect(throws: Failure.self) { try coordinator.write { throw Failure() } }
        #expect(try runOnNewThread { coordinator.read { resource.value } } == 1)
        #expect(try runOnNewThread { coordinator.write { resource.value + 1 } } == 2)
    }

    @Test("write(_:) inside a read of the same coordinator traps, naming the mistake")
    func writeInsideReadTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = ReadWriteCoordinator()
            coordinator.read { coordinator.write {} }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("write(_:) called inside a read block of the same coordinator on the same thread"))
    }

    @Test("a read that need not wait takes no lock, also after writes once one read has opened the gate again")
    func uncontendedReadsTakeNoLock() {
        let recorder = RecordingController()
        let coordinator = ReadWriteCoordinator()
        let readTwice = {
            recorder.record {
                coordinator.read {}
                coordinator.read {}
            }
        }
        readTwice()
        #expect(recorder.operations.map(\.kind) == Array(repeating: .atomic, count: 4))
        coordinator.write {}
        coordinator.enqueueWrite {}
        coordinator.read {}
        let before = recorder.operations.count
        readTwice()
        #expect(recorder.operations.dropFirst(before).map(\.kind) == Array(repeating: .atomic, count: 4))
    }

    @Test("reads, writes and waits go through the seam")
    func seamOperations() throws {
        let recorder = RecordingController()
        let coordinator = ReadWriteCoordinator()
        let resource = Resource()
        let seen = try recorder.record {
            coordinator.enqueueWrite { resource.value = 1 }
            let reader = try HeldReader(in: coordinator) {}
            let writer = try StartedThread { coordinator.write { resource.value = 2 } }
            #expect(recorder.waitUntilBlocked(thread: 2), "thread 2 never waited")
            try reader.release()
            try writer.finish()
            return coordinator.read { resource.value }
        }
        #expect(seen == 2)
        let expected: Set<RecordedOperation.Kind> = [.lock, .unlock, .wait, .broadcast]
        #expect(expected.isSubset(of: recorder.kinds), "missing: \(expected.subtracting(recorder.kinds))")
    }
}
