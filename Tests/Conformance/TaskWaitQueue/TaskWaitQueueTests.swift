@testable import Primitives
import Testing

/// The per-waiter state machine shared by ``ConcurrencyLimiter`` and ``AsyncCondition``,
/// driven synchronously through every order of grant, cancellation and registration.
@Suite("TaskWaitQueue")
struct TaskWaitQueueTests {
    @Test("registered, then granted: resumed successfully by the grant")
    func registerThenGrant() async {
        var queue = TaskWaitQueue()
        let result = await waiterOutcome { continuation in
            let id = queue.enqueue()
            #expect(queue.register(id, continuation) == nil)
            #expect(queue.count == 1)
            guard case .resume(let resumption) = queue.grantOldest() else { return nil }
            return resumption
        }
        #expect(result == .granted)
        #expect(queue.isEmpty)
    }

    @Test("granted before registering: resumed successfully at registration")
    func grantThenRegister() async {
        var queue = TaskWaitQueue()
        let result = await waiterOutcome { continuation in
            let id = queue.enqueue()
            guard case .grantedBeforeSuspending = queue.grantOldest() else { return nil }
            #expect(queue.isEmpty)
            return queue.register(id, continuation)
        }
        #expect(result == .granted)
    }

    @Test("cancelled before registering: resumed with CancellationError at registration, and skipped by grants")
    func cancelThenRegister() async {
        var queue = TaskWaitQueue()
        let result = await waiterOutcome { continuation in
            let id = queue.enqueue()
            #expect(queue.cancel(id) == nil)
            #expect(queue.isEmpty)
            guard case .noWaiter = queue.grantOldest() else { return nil }
            return queue.register(id, continuation)
        }
        #expect(result == .cancelled)
    }

    @Test("registered, then cancelled: resumed with CancellationError by the cancellation")
    func registerThenCancel() async {
        var queue = TaskWaitQueue()
        let result = await waiterOutcome { continuation in
            let id = queue.enqueue()
            #expect(queue.register(id, continuation) == nil)
            let resumption = queue.cancel(id)
            #expect(queue.isEmpty)
            return resumption
        }
        #expect(result == .cancelled)
    }

    @Test("cancelled after its grant: the grant stands")
    func grantThenCancel() async {
        var queue = TaskWaitQueue()
        let result = await waiterOutcome { continuation in
            let id = queue.enqueue()
            guard case .grantedBeforeSuspending = queue.grantOldest() else { return nil }
            #expect(queue.cancel(id) == nil)
            return queue.register(id, continuation)
        }
        #expect(result == .granted)
    }

    @Test("cancelled after being resumed by its grant: nothing happens")
    func resumedThenCancel() async {
        var queue = TaskWaitQueue()
        var waiter: TaskWaitQueue.WaiterID?
        let result = await waiterOutcome { continuation in
            let id = queue.enqueue()
            waiter = id
            #expect(queue.register(id, continuation) == nil)
            guard case .resume(let resumption) = queue.grantOldest() else { return nil }
            return resumption
        }
        #expect(result == .granted)
        #expect(queue.cancel(waiter!) == nil)
        #expect(queue.isEmpty)
    }

    @Test("grants go oldest first and skip cancelled waiters")
    func grantsAreFIFOAndSkipCancelled() async {
        var queue = TaskWaitQueue()
        let first = queue.enqueue()
        let cancelled = queue.enqueue()
        let third = queue.enqueue()
        #expect(first < cancelled && cancelled < third)
        #expect(queue.cancel(cancelled) == nil)
        #expect(queue.count == 2)
        guard case .grantedBeforeSuspending = queue.grantOldest() else {
            Issue.record("the first waiter was not granted")
            return
        }
        #expect(await waiterOutcome { queue.register(first, $0) } == .granted)
        #expect(await waiterOutcome { queue.register(third, $0) } == .stillSuspended)
    }

    @Test("grantAll grants everyone queued, suspended or not")
    func grantAll() async {
        var queue = TaskWaitQueue()
        let early = queue.enqueue()
        let cancelled = queue.enqueue()
        #expect(queue.cancel(cancelled) == nil)
        let result = await waiterOutcome { continuation in
            let suspended = queue.enqueue()
            #expect(queue.register(suspended, continuation) == nil)
            let resumptions = queue.grantAll()
            #expect(resumptions.count == 1)
            return resumptions.first
        }
        #expect(result == .granted)
        #expect(queue.isEmpty)
        #expect(await waiterOutcome { queue.register(early, $0) } == .granted)
        #expect(await waiterOutcome { queue.register(cancelled, $0) } == .cancelled)
    }
}
