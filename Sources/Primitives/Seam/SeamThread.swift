import CShim

/// An error from a POSIX thread call, carrying its errno value.
public struct SeamThreadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, such as `pthread_create`.
    public let operation: String
    /// The errno value it returned.
    public let code: Int32

    /// Creates the error `operation` returned with `code`.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation) failed with error \(code)" }
}

/// A thread started through ``Seam/spawnThread(attributes:file:line:_:)``.
public struct SeamThread: @unchecked Sendable {
    /// The POSIX thread.
    public let handle: pthread_t
    /// The thread's identity under the controller that was active when it was spawned, or
    /// `nil` when it was spawned by an uncontrolled thread.
    public let controlledID: SeamThreadID?

    /// Waits until the thread has exited and reaps it (`pthread_join`). Joining a detached
    /// or already-joined thread, or the calling thread itself, throws.
    public func join(file: StaticString = #fileID, line: UInt = #line) throws(SeamThreadError) {
        if let controlledID, let controller = Seam.controllerForCurrentThread() {
            controller.join(controlledID, at: SeamLocation(fileID: file, line: line))
        }
        let error = pthread_join(handle, nil)
        guard error == 0 else { throw SeamThreadError(operation: "pthread_join", code: error) }
    }

    /// Requests cancellation of the thread (`pthread_cancel`). It takes effect at the
    /// thread's next cancellation point while deferred, at once while asynchronous, and
    /// not while the thread has cancellation disabled.
    ///
    /// The caller must know the thread has not been reaped: a detached thread that has
    /// exited no longer has a valid handle.
    public func cancel(file: StaticString = #fileID, line: UInt = #line) throws(SeamThreadError) {
        if let controlledID, let controller = Seam.controllerForCurrentThread() {
            controller.willCancel(controlledID, at: SeamLocation(fileID: file, line: line))
        }
        let error = pthread_cancel(handle)
        guard error == 0 else { throw SeamThreadError(operation: "pthread_cancel", code: error) }
    }
}

extension Seam {
    /// Starts a POSIX thread with `attributes` (or the defaults) that runs `body`.
    ///
    /// When the caller is controlled, the new thread is controlled by the same controller
    /// for its whole life: it starts with ``SeamController/threadDidStart(_:)`` and ends
    /// with ``SeamController/threadWillExit(_:)``, whether `body` returns or the thread
    /// is cancelled. The seam keeps no Swift frame holding a reference across `body`, so a
    /// cancelled thread leaks nothing of the seam's; `body` itself must not rely on `defer`
    /// or on releases in frames that cancellation unwinds (register C cleanups instead,
    /// as ``IOThread`` does).
    public static func spawnThread(
        attributes: UnsafePointer<pthread_attr_t>? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Result<SeamThread, SeamThreadError> {
        let controller = controllerForCurrentThread()
        let controlledID = controller?.threadWillSpawn(at: SeamLocation(fileID: file, line: line))
        let start = ThreadStart(body: body, controller: controller, thread: controlledID)
        let argument = Unmanaged.passRetained(start).toOpaque()
        var handle = pthread_t()
        let error = cshim_thread_create(&handle, attributes, threadBody, threadCleanup, argument)
        guard error == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(argument).release()
            if let controller, let controlledID { controller.threadSpawnFailed(controlledID) }
            return .failure(SeamThreadError(operation: "pthread_create", code: error))
        }
        return .success(SeamThread(handle: handle, controlledID: controlledID))
    }
}

/// What a spawned thread needs: its body and, when controlled, its controller and identity.
/// Retained once for the thread and released by its C cleanup.
private final class ThreadStart {
    let body: @Sendable () -> Void
    let slot: ControllerSlot?

    init(body: @escaping @Sendable () -> Void, controller: (any SeamController)?, thread: SeamThreadID?) {
        self.body = body
        if let controller, let thread {
            slot = ControllerSlot(controller: controller, thread: thread)
        } else {
            slot = nil
        }
    }

    func run() {
        if let slot {
            cshim_seam_activate()
            cshim_seam_set_current(Unmanaged.passUnretained(slot).toOpaque())
            slot.controller.threadDidStart(slot.thread)
        }
        body()
    }
}

private func threadBody(_ argument: UnsafeMutableRawPointer?) {
    Unmanaged<ThreadStart>.fromOpaque(argument!)._withUnsafeGuaranteedRef { $0.run() }
}

private func threadCleanup(_ argument: UnsafeMutableRawPointer?) {
    let slot = Unmanaged<ThreadStart>.fromOpaque(argument!).takeRetainedValue().slot
    guard let slot else { return }
    slot.controller.threadWillExit(slot.thread)
    cshim_seam_set_current(nil)
    cshim_seam_deactivate()
}
