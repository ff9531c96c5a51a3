import CShim
import Primitives

/// How control passes between the threads of an execution: the one piece of the scheduler
/// that depends on what a controlled thread is. Exactly one thread runs; it wakes the next
/// with ``resume(_:)`` and then waits in ``park(_:)`` until it is woken in turn.
///
/// ``FutexHandoff`` serves controlled threads that are OS threads (each parked on its own
/// futex, about 3 µs a switch when pinned to one CPU). A backend of user-space context
/// switches would serve scenario threads whose bodies only touch the seam; it would also
/// have to create them, which ``Seam/spawnThread(attributes:file:line:_:)`` does with
/// `pthread_create` today.
protocol HandoffBackend: AnyObject {
    /// Waits until `thread` is resumed (at once if it already was).
    func park(_ thread: Int)
    /// Lets `thread` run.
    func resume(_ thread: Int)
    /// Waits until the execution ends (see ``finish()``) or `timeout` passes; returns
    /// whether it ended.
    func awaitFinish(timeout: Duration) -> Bool
    /// Ends the execution: wakes whoever waits in ``awaitFinish(timeout:)``.
    func finish()
}

/// Hands control between OS threads through one futex word each.
final class FutexHandoff: HandoffBackend {
    private let parkers: UnsafeMutablePointer<cshim_parker>
    private let threadCount: Int
    private let spinsBeforeSleeping: UInt32

    /// Parkers for `threadCount` threads, spinning `spinsBeforeSleeping` times (0 when the
    /// threads share one CPU) before sleeping in the kernel.
    init(threadCount: Int, spinsBeforeSleeping: UInt32) {
        self.threadCount = threadCount
        self.spinsBeforeSleeping = spinsBeforeSleeping
        parkers = .allocate(capacity: threadCount + 1)
        parkers.initialize(repeating: cshim_parker(), count: threadCount + 1)
    }

    deinit {
        parkers.deallocate()
    }

    func park(_ thread: Int) {
        cshim_park(parkers + thread, spinsBeforeSleeping)
    }

    func resume(_ thread: Int) {
        cshim_unpark(parkers + thread)
    }

    func awaitFinish(timeout: Duration) -> Bool {
        let nanoseconds = SeamInstant(nanoseconds: 0).advanced(by: timeout).nanoseconds
        return cshim_park_with_timeout(parkers + threadCount, nanoseconds)
    }

    func finish() {
        cshim_unpark(parkers + threadCount)
    }
}
