import CShim
import Dispatch

/// One-call submission of work to Grand Central Dispatch: `GCD.async { }`,
/// `GCD.async(delay:) { }`, `GCD.asyncBarrier { }`, `GCD.mainThread { }` and
/// `GCD.mainThread(delay:) { }`.
///
/// ```swift
/// GCD.async { compressLogs() }                          // concurrently, soon
/// GCD.async(delay: .milliseconds(350)) { retry() }      // not before 350 ms from now
/// GCD.asyncBarrier { rotateLogs() }                     // alone on the shared queue
/// GCD.mainThread { label.text = "done" }                // on the main queue (@MainActor)
/// ```
///
/// `async` and `asyncBarrier` share one private concurrent queue for the whole process.
/// A barrier therefore waits for every block any code submitted with `GCD.async` before it,
/// and holds back every block submitted after it, process-wide: use it only when you mean
/// exactly that, and create your own queue (`DispatchQueue(label:attributes: .concurrent)`
/// with `async(flags: .barrier)`) for a barrier over your own work only.
///
/// These functions are a namespace rather than top-level functions: a top-level `async { }`
/// compiles, but reads like Swift's `async` keyword, and every module importing this one
/// would see it. The name says which machinery runs the work: Dispatch, not Swift
/// concurrency.
///
/// On a thread a harness controls, `async` and `async(delay:)` run their work on a new
/// controlled thread after a delay on the harness's virtual clock, so the scheduler picks
/// their order and they take no wall time. Barriers and the main queue stay on Dispatch,
/// outside the harness.
public enum GCD {
    /// The process-wide concurrent queue behind ``async(_:)``, ``async(delay:_:)`` and
    /// ``asyncBarrier(_:)``.
    package static let sharedQueue = DispatchQueue(label: "Primitives.GCD.shared", attributes: .concurrent)

    /// Runs `work` on the shared concurrent queue, concurrently with other work submitted
    /// here (unless a barrier is running). Returns at once.
    public static func async(_ work: @escaping @Sendable () -> Void) {
        if isScheduled {
            runControlled(after: nil, work)
        } else {
            sharedQueue.async(execute: work)
        }
    }

    /// Runs `work` on the shared concurrent queue once at least `delay` has passed on the
    /// monotonic clock. Returns at once.
    ///
    /// Not real-time: `work` runs at or after the delay, later when the system is busy or
    /// coalesces timers. A zero or negative delay means as soon as possible, as with
    /// ``async(_:)``.
    public static func async(delay: Duration, _ work: @escaping @Sendable () -> Void) {
        if isScheduled {
            runControlled(after: delay, work)
        } else {
            sharedQueue.asyncAfter(deadline: deadline(after: delay), execute: work)
        }
    }

    /// Whether the calling thread's controller schedules it (a harness does): a
    /// ``SeamPassthroughController`` performs every operation for real, so under one (a
    /// stress run, a tracing observer) Dispatch runs the work, as on an uncontrolled thread.
    private static var isScheduled: Bool {
        guard let controller = Seam.currentController else { return false }
        return !(controller is SeamPassthroughController)
    }

    /// Under a controller (in a harness scenario), `async` and `async(delay:)` run `work` on
    /// a new detached thread of the controller's, after sleeping `delay` on its clock, so
    /// that their order and timing are the scheduler's to choose and take no wall time.
    /// Barriers and the main queue are not controlled.
    private static func runControlled(after delay: Duration?, _ work: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        check(pthread_attr_init(&attributes), "pthread_attr_init")
        defer { pthread_attr_destroy(&attributes) }
        check(pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)), "pthread_attr_setdetachstate")
        let started = Seam.spawnThread(attributes: &attributes) {
            if let delay { Seam.sleep(for: delay) }
            work()
        }
        if case .failure(let error) = started {
            fatalError("GCD.async could not start a controlled thread: \(error)")
        }
    }

    /// Runs `work` alone on the shared concurrent queue: after every block submitted there
    /// before it has finished, and before any block submitted after it starts. Returns at
    /// once. Process-wide: see ``GCD``.
    public static func asyncBarrier(_ work: @escaping @Sendable () -> Void) {
        sharedQueue.async(flags: .barrier, execute: work)
    }

    /// Runs `work` on the main queue, after the work already queued there. Returns at once.
    ///
    /// `work` is `@MainActor`: the main queue is the main actor's executor, so it runs
    /// serialized with all other main-queue and main-actor work. Which thread runs it
    /// depends on who services the main queue:
    /// - a run loop on the main thread (an app's event loop, `RunLoop.main.run()`,
    ///   XCTest waiting for an expectation): the main thread;
    /// - `dispatchMain()`, which is what an `async` `main` calls on Linux and what
    ///   `swift test` does there (measured with Swift 6.3.1, also in exit-test child
    ///   processes): `dispatchMain()` parks the main thread in `sigsuspend` and the main
    ///   queue is drained by a Dispatch pool thread, so `work` runs on the main queue but
    ///   not on the main OS thread (`Thread.isMainThread` is `false` inside it);
    /// - nothing (a synchronous `main` that never returns to a run loop): `work` never runs.
    public static func mainThread(_ work: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { work() }
    }

    /// Runs `work` on the main queue once at least `delay` has passed on the monotonic
    /// clock, as ``mainThread(_:)`` does. Returns at once. Not real-time, as with
    /// ``async(delay:_:)``.
    public static func mainThread(delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.asyncAfter(deadline: deadline(after: delay)) { work() }
    }

    /// The dispatch time `delay` from now: negative delays are now, overlong ones the
    /// distant future.
    static func deadline(after delay: Duration) -> DispatchTime {
        let nanoseconds = max(delay.nanosecondsClamped, 0)
        guard let interval = Int(exactly: nanoseconds) else { return .distantFuture }
        return .now() + .nanoseconds(interval)
    }
}
