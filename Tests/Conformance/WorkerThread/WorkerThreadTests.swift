import Primitives
import Testing

@Suite("WorkerThread: starting, sleeping and running work", .timeLimit(.minutes(10)))
struct WorkerThreadTests {
    @Test("start() returns only once the thread is waiting for work, and only once true")
    func startReturnsWhenReady() throws {
        let probe = WaitProbe()
        try probe.run { () throws in
            let worker = WorkerThread()
            #expect(try worker.start())
            #expect(probe.waits(of: .firstSpawned).count == 1, "the worker must be asleep when start() returns")
            #expect(try worker.start() == false)
            worker.stop()
        }
    }

    @Test("concurrent start() calls all return once the thread is ready; one of them started it")
    func concurrentStarts() throws {
        let probe = WaitProbe()
        let results = LockedList<(started: Bool, workerWaited: Bool)>()
        try probe.run { () throws in
            let worker = WorkerThread()
            let starterIDs = AtomicBox<Set<SeamThreadID?>>([SeamThreadID.testBody])
            let go = Gate()
            let starters = try (0..<4).map { _ in
                try Seam.spawnThread {
                    go.wait()
                    let started = (try? worker.start()) ?? false
                    // The worker is whichever thread is neither a starter nor the test body.
                    let workerWaited = probe.waits(excluding: starterIDs.load()).isEmpty == false
                    results.append((started, workerWaited))
                }.get()
            }
            starterIDs.update { $0.formUnion(starters.map(\.controlledID)) }
            go.open()
            for starter in starters { try starter.join() }
            worker.stop()
        }
        #expect(results.snapshot.count == 4)
        #expect(results.snapshot.filter { $0.started }.count == 1)
        #expect(results.snapshot.allSatisfy { $0.workerWaited })
    }

    /// The one use of wall-clock time in these tests: an idle period, to show that nothing
    /// wakes the worker during it.
    @Test("an idle worker sleeps: one untimed wait and no wake-up while idle")
    func idleWorkerSleeps() throws {
        let probe = WaitProbe()
        try probe.run { () throws in
            let worker = WorkerThread()
            try worker.start()
            try worker.sync {}
            // Asleep before start() returned, woken for the sync body, then asleep again.
            try #require(eventually { probe.waits(of: .firstSpawned).count == 2 })
            let waitsBeforeIdling = probe.waits(of: .firstSpawned).count
            let wakeUpsBeforeIdling = worker.wakeUpCount
            #expect(waitsBeforeIdling == 2)
            #expect(wakeUpsBeforeIdling == 1, "running work must count the wake-up that fetched it")

            Seam.sleep(for: .milliseconds(200))

            #expect(worker.wakeUpCount == wakeUpsBeforeIdling)
            #expect(probe.waits(of: .firstSpawned).count == waitsBeforeIdling)
            #expect(probe.waits(of: .firstSpawned).allSatisfy { !$0.hadDeadline }, "an idle worker must not poll")
            worker.stop()
        }
    }

    @Test("spurious wake-ups send an idle worker back to sleep and never cut a wait short")
    func spuriousWakeUpsAreAbsorbed() throws {
        let probe = WaitProbe()
        let ran = LockedList<Int>()
        try probe.run { () throws in
            let worker = WorkerThread()
            probe.armSpuriousWakeUps(for: .testBody)
            probe.armSpuriousWakeUps(for: .firstSpawned)
            try worker.start()
            #expect(probe.waits(of: .testBody).first?.spurious == true)
            #expect(probe.waits(of: .firstSpawned).isEmpty == false, "start() returned before the worker was ready")

            // The worker's first wait returns spuriously; wait until it is asleep again.
            try #require(eventually { probe.waits(of: .firstSpawned).count == 2 }, "the worker must go back to sleep")
            #expect(probe.waits(of: .firstSpawned).first?.spurious == true)
            #expect(worker.wakeUpCount == 1)
            #expect(ran.snapshot.isEmpty)
            #expect(worker.acceptsWork)

            let done = Gate()
            for index in 0..<10 { try worker.submit { ran.append(index) } }
            try worker.submit { done.open() }
            try #require(done.wait(timeout: .seconds(10)), "the worker must still be there to run work")
            #expect(ran.snapshot == Array(0..<10))

            // The body runs only once its caller is waiting, and that first wait is spurious.
            let callerWaits = probe.waits(of: .testBody).count
            let release = Gate()
            let opener = try Seam.spawnThread {
                _ = eventually { probe.waits(of: .testBody).count > callerWaits }
                release.open()
            }.get()
            probe.armSpuriousWakeUps(for: .testBody)
            #expect(
                try worker.sync {
                    release.wait(); return 42
                } == 42)
            #expect(probe.waits(of: .testBody).dropFirst(callerWaits).first?.spurious == true)
            try opener.join()
            worker.stop()
        }
    }

    @Test("work runs on the worker's thread, one item at a time, in submission order")
    func workRunsInOrderOnTheWorker() throws {
        let worker = WorkerThread()
        try worker.start()
        let ran = LockedList<(index: Int, onWorker: Bool)>()
        for index in 0..<1_000 {
            try worker.submit { ran.append((index, worker.isCurrent)) }
        }
        try worker.sync {}
        #expect(ran.snapshot.map(\.index).elementsEqual(0..<1_000))
        #expect(ran.snapshot.allSatisfy { $0.onWorker })
        #expect(worker.isCurrent == false)
        worker.stop()
        #expect(worker.isCurrent == false)
    }

    @Test("each submitter's work runs in its order, and none is lost, with concurrent submitters")
    func concurrentSubmitters() throws {
        let worker = WorkerThread()
        try worker.start()
        let ran = LockedList<(submitter: Int, index: Int)>()
        let submitters = try (0..<4).map { submitter in
            try Seam.spawnThread {
                for index in 0..<2_000 {
                    try? worker.submit { ran.append((submitter, index)) }
                }
            }.get()
        }
        for submitter in submitters { try submitter.join() }
        worker.stop()
        let snapshot = ran.snapshot
        #expect(snapshot.count == 8_000)
        for submitter in 0..<4 {
            let order = snapshot.filter { $0.submitter == submitter }.map(\.index)
            #expect(order.elementsEqual(0..<2_000), "submitter \(submitter)'s work ran out of order or was lost")
        }
    }

    @Test("sync returns the body's result and rethrows its error unchanged")
    func syncResultAndError() throws {
        struct Failure: Error, Equatable { let code: Int }
        let worker = WorkerThread()
        try worker.start()
        #expect(try worker.sync { worker.isCurrent })
        #expect(try worker.sync { "answer: \(6 * 7)" } == "answer: 42")
        #expect(throws: Failure(code: 7)) { try worker.sync { throw Failure(code: 7) } }
        #expect(try worker.sync { 1 } == 1, "a throwing body leaves the worker running")
        let handedOver = try worker.sync { NonSendableBox(value: 5) }
        handedOver.value += 1
        #expect(handedOver.value == 6, "a result that is not Sendable is handed over (sending)")
        worker.stop()
    }

    @Test("sync runs after the work submitted before it")
    func syncKeepsOrder() throws {
        let worker = WorkerThread()
        try worker.start()
        let ran = LockedList<Int>()
        for index in 0..<100 { try worker.submit { ran.append(index) } }
        let seen = try worker.sync { ran.snapshot.count }
        #expect(seen == 100)
        worker.stop()
    }

    @Test("sync from the worker's own thread runs inline instead of deadlocking")
    func syncFromTheWorkerRunsInline() throws {
        let worker = WorkerThread()
        try worker.start()
        let ran = LockedList<String>()
        let nested = try worker.sync {
            ran.append("outer")
            let inner = try worker.sync {
                ran.append("inner")
                return worker.isCurrent
            }
            ran.append("outer again")
            return inner
        }
        #expect(nested)
        #expect(ran.snapshot == ["outer", "inner", "outer again"])
        worker.stop()
    }

    @Test("work is refused before start() and after stop(), with an error naming why")
    func refusedWork() throws {
        let worker = WorkerThread()
        #expect(throws: WorkerThreadError.notStarted) { try worker.submit {} }
        #expect(throws: WorkerThreadError.notStarted) { try worker.sync { 1 } }
        try worker.start()
        worker.stop()
        #expect(throws: WorkerThreadError.stopped) { try worker.submit {} }
        #expect(throws: WorkerThreadError.stopped) { try worker.sync { 1 } }
        #expect(throws: WorkerThreadError.stopped) { try worker.start() }
        #expect("\(WorkerThreadError.notStarted)".contains("call start()"))
    }

    @Test("a worker stopped before it was started cannot be started")
    func stopBeforeStart() {
        let worker = WorkerThread()
        worker.stop()
        #expect(throws: WorkerThreadError.stopped) { try worker.start() }
        #expect(throws: WorkerThreadError.stopped) { try worker.submit {} }
    }

    @Test("a worker's shared state goes through the seam")
    func operationsGoThroughTheSeam() throws {
        let recorder = RecordingController()
        try recorder.record { () throws in
            let worker = WorkerThread()
            try worker.start()
            try worker.submit {}
            #expect(try worker.sync { 3 } == 3)
            worker.stop()
        }
        let expected: Set<RecordedOperation.Kind> = [
            .lock, .unlock, .wait, .signal, .broadcast, .spawn, .start, .exit, .join
        ]
        #expect(expected.isSubset(of: recorder.kinds), "missing: \(expected.subtracting(recorder.kinds))")
        #expect(recorder.operations.contains { $0.thread == .firstSpawned && $0.kind == .wait })
    }
}

/// A result type that is not `Sendable`, which `sync` hands over with `sending`.
final class NonSendableBox {
    var value: Int
    init(value: Int) { self.value = value }
}
