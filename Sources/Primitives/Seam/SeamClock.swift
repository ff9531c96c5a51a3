/// A `Clock` on the seam's monotonic time: real time in production, the harness's virtual
/// time under control, so that `Task.sleep(for:clock:)` with it, and timeouts built on it,
/// finish at once and in deadline order in a scenario.
///
/// `Task.sleep(for:)` without this clock uses the system's clock and escapes the harness.
public struct SeamClock: Clock, Sendable {
    public typealias Instant = SeamInstant

    /// The seam's clock.
    public init() {}

    @available(
        *, noasync,
        message: "a task may change threads between suspension points; read `now` from a synchronous context"
    )
    public var now: SeamInstant { Seam.now() }

    /// The smallest duration the clock distinguishes.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends the calling task until `deadline`. Throws `CancellationError` when the
    /// task is cancelled first.
    public func sleep(until deadline: SeamInstant, tolerance: Duration? = nil) async throws {
        guard let controller = Self.controller() else {
            try await Task.sleep(for: SeamInstant.realNow.duration(to: deadline))
            return
        }
        let wakeUp = OneShot()
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                wakeUp.arm(continuation)
                controller.wake(at: deadline) { wakeUp.fire(with: .success(())) }
            }
        } onCancel: {
            Seam.withoutPreemption { wakeUp.fire(with: .failure(CancellationError())) }
        }
    }

    private static func controller() -> (any SeamController)? {
        Seam.controllerForCurrentThread()
    }
}

/// A continuation resumed by whichever comes first of its wake-up and its cancellation.
private final class OneShot: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var continuation: UnsafeContinuation<Void, any Error>?
    private var early: Result<Void, any Error>?
    private var fired = false

    func arm(_ continuation: UnsafeContinuation<Void, any Error>) {
        let pending: Result<Void, any Error>? = mutex.withLock {
            if let early { return early }
            self.continuation = continuation
            return nil
        }
        if let pending { Seam.resume(continuation, with: pending) }
    }

    func fire(with result: Result<Void, any Error>) {
        let continuation: UnsafeContinuation<Void, any Error>? = mutex.withLock {
            guard !fired else { return nil }
            fired = true
            guard let continuation = self.continuation else {
                early = result
                return nil
            }
            self.continuation = nil
            return continuation
        }
        if let continuation { Seam.resume(continuation, with: result) }
    }
}
