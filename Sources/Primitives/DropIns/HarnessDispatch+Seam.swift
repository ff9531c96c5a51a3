import CShim
import Dispatch

/// What the Dispatch drop-ins share under a controller: virtual deadlines and controlled
/// threads for asynchronous blocks.
enum HarnessDispatch {
    /// `time` as a deadline on the controller's clock: its distance from now on the real
    /// clock, rounded to the millisecond (so that the microseconds that pass between
    /// computing `.now() + 0.5` and handing it over do not make virtual time, and with it the
    /// schedule, differ from run to run), added to the controller's now. `nil` for
    /// `.distantFuture`.
    static func deadline(_ time: DispatchTime) -> SeamInstant? {
        if time == .distantFuture { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        let distance = time.uptimeNanoseconds > now ? time.uptimeNanoseconds - now : 0
        let milliseconds = (distance + 500_000) / 1_000_000
        return Seam.now().advanced(by: .milliseconds(Int64(clamping: milliseconds)))
    }

    /// Runs `body` on a new detached thread of the calling thread's controller: how a block
    /// submitted asynchronously runs under a harness, so that the scheduler picks when.
    static func spawn(file: StaticString, line: UInt, _ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        check(pthread_attr_init(&attributes), "pthread_attr_init")
        defer { pthread_attr_destroy(&attributes) }
        check(pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)), "pthread_attr_setdetachstate")
        if case .failure(let error) = Seam.spawnThread(attributes: &attributes, file: file, line: line, body) {
            fatalError("a Dispatch drop-in could not start a controlled thread: \(error)")
        }
    }
}

extension DispatchTimeoutResult {
    /// The result of a wait that ended with `result`.
    init(_ satisfied: Bool) {
        self = satisfied ? .success : .timedOut
    }
}

extension SeamCall.Outcome {
    /// The outcome of a wait that ended with `satisfied` (it did not time out).
    init(_ satisfied: Bool) {
        self = satisfied ? .completed : .timedOut
    }

    /// The outcome of a wait that ended with `result`.
    init(_ result: DispatchTimeoutResult) {
        self = result == .success ? .completed : .timedOut
    }
}
