import CShim
import Primitives

/// Hands control between OS threads through one futex word each.
final class FutexHandoff: HandoffBackend {
    private let parkers: UnsafeMutablePointer<cshim_parker>
    /// How many threads it has a parker for.
    let threadCount: Int
    /// How many times a parked thread spins before sleeping in the kernel.
    let spinsBeforeSleeping: UInt32

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

    /// Makes the handoff as new, for the next execution: call once no thread of the last one
    /// touches it (a finished execution leaves a permit in the parker of whoever waits for
    /// its end).
    func reset() {
        parkers.update(repeating: cshim_parker(), count: threadCount + 1)
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

    func hostOnCallingThread() {}

    func hostUntilFinished() {
        cshim_park(parkers + threadCount, spinsBeforeSleeping)
    }

    var coroutineHost: (any SeamThreadHost)? { nil }

    func runsAsCoroutine(_ thread: Int) -> Bool { false }

    func exit(_ thread: Int) -> Never {
        pthread_exit(nil)
    }
}
