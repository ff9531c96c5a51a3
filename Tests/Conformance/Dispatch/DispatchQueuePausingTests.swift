import Dispatch
import Primitives
import Testing

/// Serialized: whether a block that should be held back could have run depends on a free
/// thread in Dispatch's process-wide pool, which parallel tests blocking in waits exhaust.
@Suite("DispatchQueue.withPaused", .serialized, .timeLimit(.minutes(10)))
struct DispatchQueuePausingTests {
    /// Whether the queue under test is concurrent (or serial).
    static let concurrency = [false, true]

    private static func makeQueue(_ label: String, concurrent: Bool) -> DispatchQueue {
        DispatchQueue(label: label, attributes: concurrent ? .concurrent : [])
    }

    @Test("blocks submitted before the call have finished when the body starts", arguments: concurrency)
    func drainsBeforeBody(concurrent: Bool) {
        let queue = Self.makeQueue("withPaused.drains", concurrent: concurrent)
        let events = LockedList<String>()
        for index in 0..<4 {
            queue.async {
                // Slow blocks: without the barrier, the body would start while they run.
                Seam.sleep(for: .milliseconds(20))
                events.append("block \(index)")
            }
        }
        queue.withPaused { events.append("body") }
        #expect(events.snapshot.count == 5)
        #expect(events.snapshot.last == "body")
    }

    /// The body waits a bounded time for a block that must not run: the only way to observe
    /// that something does not happen.
    @Test("blocks submitted while the body runs start only after it returns", arguments: concurrency)
    func holdsBlocksSubmittedDuringBody(concurrent: Bool) throws {
        let queue = Self.makeQueue("withPaused.holds", concurrent: concurrent)
        let events = LockedList<String>()
        let ran = DispatchSemaphore(value: 0)
        queue.withPaused {
            queue.async {
                events.append("submitted by the body")
                ran.signal()
            }
            let submitter = try? Seam.spawnThread {
                queue.async {
                    events.append("submitted by another thread")
                    ran.signal()
                }
            }.get()
            try? submitter?.join()
            #expect(
                ran.wait(timeout: .now() + .milliseconds(100)) == .timedOut, "a block ran while the queue was paused")
            events.append("body returns")
        }
        #expect(ran.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(ran.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(events.snapshot.first == "body returns")
        #expect(events.snapshot.count == 3)
    }

    @Test("returns the body's result, rethrows its error, and resumes the queue either way", arguments: concurrency)
    func resultErrorAndResume(concurrent: Bool) {
        struct Failure: Error, Equatable {}
        let queue = Self.makeQueue("withPaused.result", concurrent: concurrent)
        #expect(queue.withPaused { 42 } == 42)
        #expect(throws: Failure()) { try queue.withPaused { throw Failure() } }
        let resumed = DispatchSemaphore(value: 0)
        queue.async { resumed.signal() }
        #expect(resumed.wait(timeout: .now() + .seconds(10)) == .success, "the queue stayed suspended")
    }

    @Test("a typed error keeps its type")
    func typedThrows() {
        enum Refusal: Error { case no }
        let queue = DispatchQueue(label: "withPaused.typed")
        do {
            try queue.withPaused { () throws(Refusal) in throw .no }
        } catch {
            #expect(error == .no)
        }
    }

    @Test("does no seam operation: Dispatch, not the seam, synchronizes it")
    func outsideTheSeam() {
        let recorder = RecordingController()
        recorder.record {
            let queue = DispatchQueue(label: "withPaused.seam", attributes: .concurrent)
            queue.async {}
            queue.withPaused {}
        }
        #expect(recorder.operations.isEmpty)
    }

    @Test("calling it from a block running on the queue traps instead of deadlocking")
    func fromItsOwnQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let queue = DispatchQueue(label: "withPaused.reentrant", attributes: .concurrent)
            queue.sync { queue.withPaused {} }
        }
    }

    @Test("pausing a global queue, which would pause nothing, traps")
    func globalQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            DispatchQueue.global().withPaused {}
        }
    }
}
