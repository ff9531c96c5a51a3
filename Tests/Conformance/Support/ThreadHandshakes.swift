import CShim
import Primitives

/// Runs `body` on a new thread spawned through the seam, waits for it to finish, and
/// returns what it returned; throws ``ThreadDidNotFinish`` if it takes longer than
/// `timeout`, so a deadlock fails the test instead of hanging it. Expectations are checked
/// on the test's thread, with the result.
func runOnNewThread<Result: Sendable>(
    within timeout: Duration = .seconds(10),
    _ body: @escaping @Sendable () -> Result
) throws -> Result {
    try StartedThread(body).finish(within: timeout)
}

/// Starts `body` on a new thread spawned through the seam; `finish(within:)` waits for it
/// and returns what it returned.
struct StartedThread<Result: Sendable> {
    private let thread: SeamThread
    private let box = ResultBox<Result>()
    private let done = Gate()

    init(_ body: @escaping @Sendable () -> Result) throws {
        let (box, done) = (box, done)
        thread = try Seam.spawnThread {
            box.value = body()
            done.open()
        }.get()
    }

    /// Joins the thread and returns its result; throws ``ThreadDidNotFinish`` (leaving the
    /// thread running) if it has not finished within `timeout`.
    func finish(within timeout: Duration = .seconds(10)) throws -> Result {
        guard done.wait(timeout: timeout) else { throw ThreadDidNotFinish(timeout: timeout) }
        try thread.join()
        return box.value!
    }
}

/// A test thread did not finish in time: most likely a deadlock.
struct ThreadDidNotFinish: Error, CustomStringConvertible {
    let timeout: Duration
    var description: String { "the thread did not finish within \(timeout): deadlocked?" }
}

/// Where a spawned thread leaves its result; read only after joining it.
final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}

/// A one-way gate between test threads, on the seam: once opened it stays open.
final class Gate: @unchecked Sendable {
    private let mutex = SeamMutex()
    private let opened = SeamCondition()
    private var isOpen = false

    func open() {
        mutex.withLock { isOpen = true }
        opened.broadcast()
    }

    /// Waits until the gate is open; returns `false` if that took longer than `timeout`
    /// (a test failure, not a way to wait for time to pass).
    @discardableResult
    func wait(timeout: Duration = .seconds(10)) -> Bool {
        mutex.withLock {
            opened.wait(on: mutex, until: { isOpen }, deadline: Seam.now().advanced(by: timeout))
        }
    }
}

extension RecordingController {
    /// Waits until the controlled thread `thread` has recorded a condition wait, and returns
    /// `true`; returns `false` if it exits without one. How a test knows a thread has
    /// reached a blocking wait. Polls with `sched_yield` rather than `Seam.yield`, which
    /// would be recorded on every turn.
    func waitUntilBlocked(thread: Int) -> Bool {
        let id = SeamThreadID(rawValue: thread)
        while true {
            for operation in operations where operation.thread == id {
                if operation.kind == .wait { return true }
                if operation.kind == .exit { return false }
            }
            sched_yield()
        }
    }
}

/// Yields until `condition` holds or `timeout` passes; returns whether it held. For waiting
/// on a state that has no condition to wait on, where a broken primitive would never reach
/// it (the timeout only turns that hang into a failure).
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = Seam.now().advanced(by: timeout)
    while !condition() {
        guard Seam.now() < deadline else { return false }
        Seam.yield()
    }
    return true
}
