import CShim
import Primitives
import Testing

/// A real thread handle for the state machine to carry: a thread that ran and was joined.
private func exitedThread() throws -> SeamThread {
    let thread = try Seam.spawnThread {}.get()
    try thread.join()
    return thread
}

private extension IOThreadLifecycle {
    /// A joinable lifecycle whose thread has entered its body.
    static func running(_ thread: SeamThread) -> IOThreadLifecycle {
        var lifecycle = IOThreadLifecycle(joinable: true)
        lifecycle.launched(thread, at: SeamInstant(nanoseconds: 1))
        #expect(lifecycle.enter() == .runBody)
        return lifecycle
    }
}

/// The state machine on its own, as a harness checks it: every transition, every action.
@Suite("IOThread lifecycle")
struct IOThreadLifecycleTests {
    @Test("a thread that runs to the end hands its handlers out once, told it finished")
    func runToTheEnd() throws {
        let thread = try exitedThread()
        var lifecycle = IOThreadLifecycle(joinable: false)
        #expect(lifecycle.canLaunch)
        #expect(lifecycle.register { _ in } == .queued)
        lifecycle.launched(thread, at: SeamInstant(nanoseconds: 5))
        #expect(!lifecycle.canLaunch)
        #expect(lifecycle.launchedAt == SeamInstant(nanoseconds: 5))
        #expect(lifecycle.state == [.started])
        #expect(lifecycle.enter() == .runBody)
        #expect(lifecycle.state == [.started, .entered])
        #expect(lifecycle.register { _ in } == .queued)
        lifecycle.bodyReturned()
        #expect(lifecycle.exitKind == .finished)
        #expect(lifecycle.state == [.started, .entered, .finished])
        let batch = lifecycle.nextExitBatch()
        #expect(batch?.kind == .finished)
        #expect(batch?.handlers.count == 2)
        #expect(lifecycle.nextExitBatch() == nil)
        #expect(lifecycle.state == [.started, .entered, .finished, .exited])
        #expect(lifecycle.register { _ in } == .runNow(.finished))
    }

    @Test("a kill before entry is recorded, skips the body and makes the exit killed")
    func killBeforeEntry() throws {
        var lifecycle = IOThreadLifecycle(joinable: true)
        guard case .ignore = lifecycle.kill() else { Issue.record("a kill before launch acted"); return }
        lifecycle.launched(try exitedThread(), at: SeamInstant(nanoseconds: 1))
        guard case .preventEntry = lifecycle.kill() else {
            Issue.record("a kill before entry did not prevent it"); return
        }
        guard case .ignore = lifecycle.kill() else { Issue.record("a second kill acted"); return }
        #expect(lifecycle.enter() == .skipBody)
        #expect(lifecycle.nextExitBatch() == nil)
        #expect(lifecycle.exitKind == .killed)
        #expect(lifecycle.state == [.started, .cancelled, .exited])
    }

    @Test("a kill while the body runs cancels the thread, which exits killed")
    func killWhileRunning() throws {
        let thread = try exitedThread()
        var lifecycle = IOThreadLifecycle.running(thread)
        guard case .cancel(let cancelled) = lifecycle.kill() else {
            Issue.record("a kill of a running body did not cancel"); return
        }
        #expect(pthread_equal(cancelled.handle, thread.handle) != 0)
        #expect(lifecycle.register { _ in } == .queued)
        #expect(lifecycle.nextExitBatch()?.kind == .killed)
        #expect(lifecycle.nextExitBatch() == nil)
        #expect(lifecycle.state == [.started, .entered, .cancelled, .exited])
    }

    @Test("a kill after the body returned is ignored, and the exit stays finished")
    func killAfterReturn() throws {
        var lifecycle = IOThreadLifecycle.running(try exitedThread())
        lifecycle.bodyReturned()
        guard case .ignore = lifecycle.kill() else { Issue.record("a kill after the body returned acted"); return }
        #expect(!lifecycle.killRequested)
        #expect(lifecycle.nextExitBatch() == nil)
        #expect(lifecycle.exitKind == .finished)
    }

    @Test("handlers registered while exiting are handed out in a later batch, before the thread counts as exited")
    func registrationWhileExiting() throws {
        var lifecycle = IOThreadLifecycle.running(try exitedThread())
        #expect(lifecycle.register { _ in } == .queued)
        lifecycle.bodyReturned()
        #expect(lifecycle.nextExitBatch()?.handlers.count == 1)
        #expect(lifecycle.register { _ in } == .queued)
        #expect(lifecycle.register { _ in } == .queued)
        #expect(!lifecycle.state.contains(.exited))
        #expect(lifecycle.nextExitBatch()?.handlers.count == 2)
        #expect(lifecycle.nextExitBatch() == nil)
        #expect(lifecycle.state.contains(.exited))
    }

    @Test("join: one joiner at a time, never the thread itself, reaped once; a cancelled join can be retried")
    func joining() throws {
        let thread = try exitedThread()
        var detached = IOThreadLifecycle(joinable: false)
        #expect(detached.beginJoin(calledFrom: pthread_self()).report == .notJoinable)
        detached.launched(thread, at: SeamInstant(nanoseconds: 1))
        #expect(detached.beginJoin(calledFrom: pthread_self()).report == .notJoinable)
        #expect(detached.unreapedThread == nil)

        var lifecycle = IOThreadLifecycle(joinable: true)
        #expect(lifecycle.beginJoin(calledFrom: pthread_self()).report == .notStarted)
        lifecycle = .running(thread)
        #expect(lifecycle.unreapedThread != nil)
        #expect(lifecycle.beginJoin(calledFrom: thread.handle).report == .calledFromOwnThread)
        #expect(lifecycle.beginJoin(calledFrom: pthread_self()).report == nil)
        #expect(lifecycle.reaping == .joining)
        #expect(lifecycle.beginJoin(calledFrom: pthread_self()).report == .alreadyBeingJoined)
        lifecycle.joinInterrupted()
        #expect(lifecycle.reaping == .awaitingJoin)
        #expect(lifecycle.beginJoin(calledFrom: pthread_self()).report == nil)
        lifecycle.bodyReturned()
        #expect(lifecycle.nextExitBatch() == nil)
        #expect(lifecycle.joinFinished() == .finished)
        #expect(lifecycle.unreapedThread == nil)
        #expect(lifecycle.beginJoin(calledFrom: thread.handle).report == .alreadyJoined)
    }

    @Test("impossible transitions trap, naming the state")
    func impossibleTransitionsTrap() async {
        let returnedUnstarted = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var lifecycle = IOThreadLifecycle(joinable: true)
            lifecycle.bodyReturned()
        }
        expectTrapMessage(returnedUnstarted, "IOThread body returned while unstarted")
        let enteredUnstarted = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var lifecycle = IOThreadLifecycle(joinable: true)
            _ = lifecycle.enter()
        }
        expectTrapMessage(enteredUnstarted, "IOThread entered its body while unstarted")
        let exitedUnstarted = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var lifecycle = IOThreadLifecycle(joinable: true)
            _ = lifecycle.nextExitBatch()
        }
        expectTrapMessage(exitedUnstarted, "IOThread ran its exit handlers while unstarted")
        let exitedUnentered = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var lifecycle = IOThreadLifecycle(joinable: true)
            lifecycle.launched(try exitedThread(), at: SeamInstant(nanoseconds: 1))
            _ = lifecycle.nextExitBatch()
        }
        expectTrapMessage(exitedUnentered, "without entering its body although no kill was requested")
        let launchedTwice = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let thread = try exitedThread()
            var lifecycle = IOThreadLifecycle(joinable: true)
            lifecycle.launched(thread, at: SeamInstant(nanoseconds: 1))
            lifecycle.launched(thread, at: SeamInstant(nanoseconds: 2))
        }
        expectTrapMessage(launchedTwice, "IOThread launched a second OS thread while launched")
        let joinedRunning = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var lifecycle = IOThreadLifecycle.running(try exitedThread())
            _ = lifecycle.beginJoin(calledFrom: pthread_self())
            _ = lifecycle.joinFinished()
        }
        expectTrapMessage(joinedRunning, "IOThread join finished while running and joining")
    }
}

/// Expects the exit test's process to have written `message` to standard error. Optimized
/// builds trap without printing a precondition's message, so there it checks nothing.
private func expectTrapMessage(
    _ result: ExitTest.Result?,
    _ message: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard !BuildConfiguration.isOptimized else { return }
    let standardError = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    #expect(standardError.contains(message), sourceLocation: sourceLocation)
}

private extension IOThreadLifecycle.JoinAction {
    /// The result reported without waiting, or `nil` when the caller is to join.
    var report: IOThreadJoinResult? {
        switch self {
        case .report(let result): result
        case .join: nil
        }
    }
}
