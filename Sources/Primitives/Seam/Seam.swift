import CShim

/// The runtime seam: the small set of operations through which every primitive of this
/// package touches shared state.
///
/// Each operation is the plain OS operation plus one predictable branch (is any
/// controlled execution active in the process?). When the calling thread is controlled
/// (see ``SeamController``), the operation goes to its controller instead, which is how
/// a harness turns every operation into a scheduling point.
///
/// The operations are: ``SeamMutex`` (plain and recursive), ``SeamCondition``,
/// ``SeamAtomic``, ``spawnThread(attributes:_:)`` with ``SeamThread/join(file:line:)`` and
/// ``SeamThread/cancel(file:line:)``, ``cancellationPoint(file:line:)``,
/// ``yield(file:line:)``, ``now()``, ``sleep(until:file:line:)`` and
/// ``resume(_:with:file:line:)``. Build your own primitives on these and nothing else,
/// and the harness can test them.
public enum Seam {
    /// The controller of the calling thread, or `nil` when the thread is not controlled.
    @available(*, noasync, message: "a task may change threads between suspension points")
    @inlinable
    public static var currentController: (any SeamController)? { controllerForCurrentThread() }

    /// The calling thread's identity under its controller, or `nil` when the thread is not
    /// controlled.
    @available(*, noasync, message: "a task may change threads between suspension points")
    @inlinable
    public static var currentThread: SeamThreadID? {
        currentSlot()?.takeUnretainedValue().thread
    }

    /// Runs `body` on the calling thread with `controller` receiving its seam operations as
    /// thread `thread`, then restores what was installed before. Threads spawned through
    /// the seam inside `body` are controlled by `controller` too, for their whole life.
    @available(*, noasync, message: "a task may change threads between suspension points")
    public static func withController<Result, Failure: Error>(
        _ controller: any SeamController,
        thread: SeamThreadID,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let slot = ControllerSlot(controller: controller, thread: thread)
        let previous = cshim_seam_current()
        cshim_seam_activate()
        cshim_seam_set_current(Unmanaged.passUnretained(slot).toOpaque())
        defer {
            cshim_seam_set_current(previous)
            cshim_seam_deactivate()
            withExtendedLifetime(slot) {}
        }
        return try body()
    }

    /// Offers the processor to another thread (`sched_yield`).
    @inlinable
    public static func yield(file: StaticString = #fileID, line: UInt = #line) {
        route({ $0.yield(at: SeamLocation(fileID: file, line: line)) }, otherwise: { _ = sched_yield() })
    }

    /// A deferred-cancellation point (`pthread_testcancel`): if cancellation of the calling
    /// thread was requested and is enabled, the thread exits here, running its cleanup
    /// handlers.
    @inlinable
    public static func cancellationPoint(file: StaticString = #fileID, line: UInt = #line) {
        route({ $0.cancellationPoint(at: SeamLocation(fileID: file, line: line)) }, otherwise: {})
        pthread_testcancel()
    }

    /// The current instant of the monotonic clock; the controller's clock (virtual time,
    /// under a harness) on a controlled thread.
    @inlinable
    public static func now() -> SeamInstant {
        route({ $0.now() }, otherwise: { .realNow })
    }

    /// Returns at or after `deadline` on ``now()``'s clock. A cancellation point.
    @inlinable
    public static func sleep(until deadline: SeamInstant, file: StaticString = #fileID, line: UInt = #line) {
        if let controller = controllerForCurrentThread() {
            controller.sleep(until: deadline, at: SeamLocation(fileID: file, line: line))
            pthread_testcancel()
        } else {
            let error = cshim_sleep_until_monotonic(deadline.nanoseconds)
            precondition(error == 0, "Seam.sleep(until:) failed with error \(error)")
        }
    }

    /// Sleeps for `duration` on ``now()``'s clock. A cancellation point.
    @inlinable
    public static func sleep(for duration: Duration, file: StaticString = #fileID, line: UInt = #line) {
        sleep(until: now().advanced(by: duration), file: file, line: line)
    }

    /// Runs `body` so that a controller switches to no other thread inside it unless the
    /// calling thread blocks.
    ///
    /// For code that the Swift runtime calls while it holds a lock of its own, above all
    /// the `onCancel` handlers of `withTaskCancellationHandler`, which run under the
    /// cancelled task's status lock: a harness that parked the thread there and ran another
    /// one that touches the same task would block outside the seam. When the calling thread
    /// blocks inside on a mutex or a join, the harness runs only the thread it waits for
    /// until it can go on. In production, just runs `body`.
    @inlinable
    public static func withoutPreemption<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard let controller = controllerForCurrentThread() else { return try body() }
        controller.enterNonPreemptibleRegion()
        defer { controller.exitNonPreemptibleRegion() }
        return try body()
    }

    /// Tells the calling thread's controller that the thread is about to use state the OS
    /// keeps per thread, such as thread-specific storage (see
    /// ``SeamController/willUseThreadSpecificState(at:)``). Not a scheduling point.
    @inlinable
    public static func willUseThreadSpecificState(file: StaticString = #fileID, line: UInt = #line) {
        route({ $0.willUseThreadSpecificState(at: SeamLocation(fileID: file, line: line)) }, otherwise: {})
    }

    /// Resumes `continuation` with `result`, telling the controller first.
    @inlinable
    public static func resume<Value, Failure: Error>(
        _ continuation: CheckedContinuation<Value, Failure>,
        with result: sending Result<Value, Failure>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        noteResume(file: file, line: line)
        continuation.resume(with: result)
    }

    /// Resumes `continuation` with `result`, telling the controller first.
    @inlinable
    public static func resume<Value, Failure: Error>(
        _ continuation: UnsafeContinuation<Value, Failure>,
        with result: sending Result<Value, Failure>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        noteResume(file: file, line: line)
        continuation.resume(with: result)
    }

    @inlinable
    static func noteResume(file: StaticString, line: UInt) {
        route({ $0.willResumeContinuation(at: SeamLocation(fileID: file, line: line)) }, otherwise: {})
    }

    /// The calling thread's slot, when it is controlled. The fast path of every operation:
    /// one relaxed load while no controller is active.
    @inlinable @inline(__always)
    static func currentSlot() -> Unmanaged<ControllerSlot>? {
        guard _slowPath(cshim_seam_any_active()), let raw = cshim_seam_current() else { return nil }
        return Unmanaged<ControllerSlot>.fromOpaque(raw)
    }

    /// Calls `body` with the calling thread's controller, borrowed from the thread's slot,
    /// which holds it for as long as the thread is controlled: nothing is retained. `nil`
    /// when the thread is not controlled. Inlinable, so that callers in other modules get it
    /// specialized: unspecialized, each call moved its result through generic value witnesses.
    @inlinable
    package static func withCurrentController<Result>(_ body: (any SeamController) -> Result) -> Result? {
        currentSlot()?._withUnsafeGuaranteedRef { body($0.controller) }
    }

    /// The calling thread's controller when it is an instance of exactly `Controller` (a final
    /// class), unretained: the thread's slot holds it for as long as the thread is
    /// controlled. `nil` when the thread is not controlled, or not by a `Controller`. Checks
    /// the type instead of casting, and takes no closure: a cast returned the controller
    /// retained, and a closure made callers retain what it captured.
    @inlinable @inline(__always)
    package static func currentController<Controller: SeamController>(
        ofExactType _: Controller.Type
    ) -> Unmanaged<Controller>? {
        guard let slot = currentSlot() else { return nil }
        return slot._withUnsafeGuaranteedRef { slot in
            guard type(of: slot.controller) == Controller.self else { return nil }
            return Unmanaged<Controller>.fromOpaque(Unmanaged.passUnretained(slot.controller as AnyObject).toOpaque())
        }
    }

    /// The calling thread's controller, retained: for the operations that keep it across
    /// calls of their own (spawning, the drop-ins); ``route(_:otherwise:)`` for the rest.
    @inlinable
    static func controllerForCurrentThread() -> (any SeamController)? {
        currentSlot()?.takeUnretainedValue().controller
    }

    /// Hands an operation to the calling thread's controller, or runs `direct` when the
    /// thread is not controlled: the path of the operations a scenario takes at every step.
    /// The controller is borrowed from the thread's slot, which holds it for as long as the
    /// thread is controlled, so handing the operation over retains nothing.
    @inlinable @inline(__always)
    static func route<Result>(
        _ controlled: (any SeamController) throws -> Result,
        otherwise direct: () throws -> Result
    ) rethrows -> Result {
        guard let slot = currentSlot() else { return try direct() }
        return try slot._withUnsafeGuaranteedRef { try controlled($0.controller) }
    }
}

/// What the seam's thread-local slot points at: a thread's controller and its identity there.
/// Not final: a coroutine's start is its slot too (`CoroutineStart`), one object a thread.
@usableFromInline
class ControllerSlot {
    @usableFromInline
    let controller: any SeamController
    @usableFromInline
    let thread: SeamThreadID

    init(controller: any SeamController, thread: SeamThreadID) {
        self.controller = controller
        self.thread = thread
    }
}
