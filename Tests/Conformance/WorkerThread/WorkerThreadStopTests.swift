import Primitives
import Testing

@Suite("WorkerThread: stopping and deinitialization", .timeLimit(.minutes(10)))
struct WorkerThreadStopTests {
    /// Whether `recorder` saw the worker's thread exit.
    private static func workerExited(_ recorder: RecordingController) -> Bool {
        recorder.operations.contains { $0.kind == .exit && $0.thread == .firstSpawned }
    }

    /// Runs `body` under a new recorder, with a started worker whose first item waits for
    /// `gate`, so that the work `body` submits stays queued until the gate opens.
    private static func withBlockedWorker(
        _ body: (_ worker: WorkerThread, _ gate: Gate, _ recorder: RecordingController) throws -> Void
    ) throws {
        let recorder = RecordingController()
        let gate = Gate()
        try recorder.record { () throws in
            let worker = WorkerThread()
            try worker.start()
            try worker.submit { gate.wait() }
            try body(worker, gate, recorder)
        }
    }

    @Test("stop() runs the queued work, then returns only once the thread exited and was joined")
    func stopDrainsAndJoins() throws {
        let lifetimes = LifetimeCounter()
        let ran = LockedList<Int>()
        try Self.withBlockedWorker { worker, gate, recorder in
            for index in 0..<50 {
                let tracked = lifetimes.make()
                try worker.submit { withExtendedLifetime(tracked) { ran.append(index) } }
            }
            // Open the gate only once stop() has closed the worker, so that the 50 items are
            // still queued when it is called.
            let opener = try Seam.spawnThread {
                _ = eventually { !worker.acceptsWork }
                gate.open()
            }.get()
            worker.stop()
            #expect(ran.snapshot == Array(0..<50))
            #expect(Self.workerExited(recorder))
            #expect(recorder.kinds.contains(.join))
            try opener.join()
        }
        #expect(lifetimes.createdCount == 50)
        #expect(lifetimes.liveCount == 0, "the worker must release the work it ran")
    }

    @Test("stop() is idempotent, and concurrent stop() calls all return once the thread was joined")
    func concurrentStops() throws {
        let sawExit = LockedList<Bool>()
        try Self.withBlockedWorker { worker, gate, recorder in
            let stoppers = try (0..<4).map { _ in
                try Seam.spawnThread {
                    worker.stop()
                    sawExit.append(Self.workerExited(recorder))
                }.get()
            }
            #expect(eventually { !worker.acceptsWork })
            gate.open()
            for stopper in stoppers { try stopper.join() }
            worker.stop()
            sawExit.append(Self.workerExited(recorder))
            let joinsOfTheWorker = recorder.operations.filter { $0.kind == .join && $0.thread != .testBody }
            #expect(joinsOfTheWorker.count == 1, "exactly one stopper joined the worker")
        }
        #expect(sawExit.snapshot == Array(repeating: true, count: 5))
    }

    @Test("stop() from the worker's own work returns at once; the queue drains and a later stop() joins")
    func stopFromTheWorker() throws {
        let events = LockedList<String>()
        try Self.withBlockedWorker { worker, gate, recorder in
            try worker.submit {
                worker.stop()
                events.append("stop returned")
                do {
                    try worker.submit {}
                } catch {
                    events.append("then refused: \((error as? WorkerThreadError) == .stopped)")
                }
            }
            for index in 0..<3 { try worker.submit { events.append("queued \(index)") } }
            gate.open()
            worker.stop()
            #expect(Self.workerExited(recorder))
        }
        #expect(events.snapshot == ["stop returned", "then refused: true", "queued 0", "queued 1", "queued 2"])
    }

    /// Starts a worker, lets `submitting` queue work on it, and drops the only reference
    /// outside that work. Returns what observes whether the worker was deinitialized.
    private static func startAndRelease(
        after submitting: (WorkerThread) throws -> Void
    ) throws -> () -> WorkerThread? {
        let worker = WorkerThread()
        try worker.start()
        try submitting(worker)
        return { [weak worker] in worker }
    }

    @Test("releasing a running worker stops it: its queue drains and its thread is joined")
    func deinitStops() throws {
        let recorder = RecordingController()
        let ran = LockedList<Int>()
        try recorder.record { () throws in
            let released = try Self.startAndRelease { worker in
                for index in 0..<20 { try worker.submit { ran.append(index) } }
            }
            #expect(released() == nil)
            #expect(ran.snapshot == Array(0..<20))
            #expect(Self.workerExited(recorder))
            #expect(recorder.kinds.contains(.join))
        }
    }

    @Test("a worker whose last reference goes away on its own thread drains, detaches and exits")
    func deinitOnTheWorker() throws {
        let recorder = RecordingController()
        let ran = LockedList<String>()
        let gate = Gate()
        let released = try recorder.record { () throws in
            let released = try Self.startAndRelease { worker in
                try worker.submit { [worker] in
                    gate.wait()
                    ran.append("last holder \(worker.isCurrent)")
                }
                try worker.submit { ran.append("queued after") }
            }
            #expect(released() != nil, "the first item holds the worker")
            gate.open()
            return released
        }
        #expect(eventually { Self.workerExited(recorder) })
        #expect(released() == nil)
        #expect(ran.snapshot == ["last holder true", "queued after"])
        #expect(!recorder.kinds.contains(.join), "nobody is left to join the thread: it detached itself")
    }

    @Test("releasing a worker that was never started does nothing")
    func deinitUnstarted() {
        let recorder = RecordingController()
        recorder.record { _ = WorkerThread() }
        #expect(!recorder.kinds.contains(.spawn))
        #expect(!recorder.kinds.contains(.join))
    }
}
