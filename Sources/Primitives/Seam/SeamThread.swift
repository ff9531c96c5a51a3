import CShim
import Synchronization

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
    /// For a body run by a pooled OS thread of a ``SeamThreadHost``, what tells that it
    /// ended: the OS thread goes on to run other bodies.
    let completion: SeamThreadCompletion?
    /// Whether the body runs as a coroutine on `handle`, an OS thread it shares: then the
    /// controller alone can cancel, detach, join or tell it apart.
    let isCoroutine: Bool

    init(
        handle: pthread_t, controlledID: SeamThreadID?, completion: SeamThreadCompletion? = nil,
        isCoroutine: Bool = false
    ) {
        self.handle = handle
        self.controlledID = controlledID
        self.completion = completion
        self.isCoroutine = isCoroutine
    }

    /// Whether the calling thread is this thread.
    public var isCurrent: Bool {
        if let controlledID, let current = Seam.currentThread {
            return current == controlledID
        }
        return !isCoroutine && pthread_equal(handle, cshim_thread_self()) != 0
    }

    /// Lets the thread be reaped when it exits, without a join (`pthread_detach`). Detaching
    /// a thread twice, or one that was joined, is an error.
    public func detach() throws(SeamThreadError) {
        if isCoroutine { return }
        let error = pthread_detach(handle)
        guard error == 0 else { throw SeamThreadError(operation: "pthread_detach", code: error) }
    }

    /// Waits until the thread has exited and reaps it (`pthread_join`); for a body run on a
    /// ``SeamThreadPool``, until the body has ended. Joining a detached or already-joined
    /// thread, or the calling thread itself, throws. Under a controller the join is a
    /// scheduling point, where the controller may fail a second join of the thread; a
    /// coroutine's is ordered there (or by its host's end) and needs nothing more.
    public func join(file: StaticString = #fileID, line: UInt = #line) throws(SeamThreadError) {
        if let controlledID {
            Seam.route({ $0.join(controlledID, at: SeamLocation(fileID: file, line: line)) }, otherwise: {})
        }
        // A coroutine is joined at its controller's join point, which returns after the
        // thread's exit, or by the thread that hosted it, once the execution ended: its body
        // has ended either way, and what its cleanup still does is the seam's own.
        if isCoroutine { return }
        // Waited on where the value holds it: bound to a name of its own, the completion was
        // retained for the wait.
        if let waited = completion?.wait() {
            guard waited else { throw SeamThreadError(operation: "pthread_join", code: EINVAL) }
            return
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
        if isCoroutine { return }
        let error = pthread_cancel(handle)
        guard error == 0 else { throw SeamThreadError(operation: "pthread_cancel", code: error) }
    }
}

extension Seam {
    /// A thread entry point that holds no references: a C function and its argument.
    public typealias ThreadEntry = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Starts a POSIX thread with `attributes` (or the defaults) that runs `body`.
    ///
    /// When the caller is controlled, the new thread is controlled by the same controller
    /// for its whole life: it starts with ``SeamController/threadDidStart(_:)`` and ends
    /// with ``SeamController/threadWillExit(_:)``, whether `body` returns or the thread
    /// is cancelled.
    ///
    /// A thread that may be cancelled should start with
    /// ``spawnThread(attributes:file:line:entry:argument:)`` instead: Swift copies a closure
    /// to call it, and in unoptimized builds a cancelled thread never releases that copy, so
    /// what `body` captured is leaked.
    public static func spawnThread(
        attributes: UnsafePointer<pthread_attr_t>? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Result<SeamThread, SeamThreadError> {
        spawn(attributes: attributes, body: .closure(body), location: SeamLocation(fileID: file, line: line))
    }

    /// Starts a POSIX thread with `attributes` (or the defaults) that calls
    /// `entry(argument)`, controlled as with ``spawnThread(attributes:file:line:_:)``.
    ///
    /// The seam holds no Swift reference in the frames around `entry`, so cancelling the
    /// thread leaks nothing of the seam's: the caller owns `argument` and releases it from a
    /// cleanup registered with `cshim_run_with_cleanup`, which runs on cancellation too.
    public static func spawnThread(
        attributes: UnsafePointer<pthread_attr_t>? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        entry: ThreadEntry,
        argument: UnsafeMutableRawPointer?
    ) -> Result<SeamThread, SeamThreadError> {
        spawn(
            attributes: attributes, body: .function(entry, argument), location: SeamLocation(fileID: file, line: line))
    }

    /// Starts a POSIX thread controlled by `controller` as `thread`, whatever controls the
    /// caller: how a controller starts the first thread of an execution. The thread begins
    /// with ``SeamController/threadDidStart(_:)`` and ends with
    /// ``SeamController/threadWillExit(_:)`` (also when cancelled or ended with
    /// `pthread_exit`); ``SeamController/threadWillSpawn(at:)`` is not called.
    public static func spawnThread(
        controlledBy controller: any SeamController,
        as thread: SeamThreadID,
        attributes: UnsafePointer<pthread_attr_t>? = nil,
        _ body: @escaping @Sendable () -> Void
    ) -> Result<SeamThread, SeamThreadError> {
        create(attributes: attributes, body: .closure(body), controller: controller, controlledID: thread)
    }

    /// Runs `body` on `host` (a pooled OS thread, a coroutine), controlled as with
    /// ``spawnThread(attributes:file:line:_:)``: for the threads a harness starts and joins
    /// itself, which are neither detached nor cancelled.
    package static func spawnThread(
        on host: any SeamThreadHost,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Result<SeamThread, SeamThreadError> {
        spawn(attributes: nil, body: .closure(body), location: SeamLocation(fileID: file, line: line), host: host)
    }

    /// Runs `body` on `host` as ``spawnThread(on:file:line:_:)`` does, handing an error it
    /// throws to `onError`, on the same thread: a throwing body needs no closure around it.
    package static func spawnThread(
        on host: any SeamThreadHost,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () throws -> Void,
        onError: @escaping @Sendable (any Error) -> Void
    ) -> Result<SeamThread, SeamThreadError> {
        spawn(
            attributes: nil, body: .throwing(body, onError: onError), location: SeamLocation(fileID: file, line: line),
            host: host)
    }

    /// Runs `entry(argument)` on `host`, controlled by `controller` as `thread`, as
    /// ``spawnThread(controlledBy:as:attributes:_:)`` does a closure on a fresh thread.
    package static func spawnThread(
        on host: any SeamThreadHost,
        controlledBy controller: any SeamController,
        as thread: SeamThreadID,
        entry: ThreadEntry,
        argument: UnsafeMutableRawPointer?
    ) -> Result<SeamThread, SeamThreadError> {
        create(
            attributes: nil, body: .function(entry, argument), controller: controller, controlledID: thread, host: host)
    }

    private static func spawn(
        attributes: UnsafePointer<pthread_attr_t>?,
        body: consuming ThreadStart.Body,
        location: SeamLocation,
        host: (any SeamThreadHost)? = nil
    ) -> Result<SeamThread, SeamThreadError> {
        // The spawn's scheduling point borrows the controller; the one reference taken after
        // it moves to the thread's slot. Taken first and asked through, it was retained twice.
        let controlledID = withCurrentController { $0.threadWillSpawn(at: location) }
        let controller = controllerForCurrentThread()
        if host == nil, attributes == nil, case .closure = body, let hosting = controller as? any SeamThreadHosting,
            let spawnedHost = hosting.hostForSpawnedThreads
        {
            return create(
                attributes: attributes, body: body, controller: controller, controlledID: controlledID,
                host: spawnedHost)
        }
        return create(
            attributes: attributes, body: body, controller: controller, controlledID: controlledID, host: host)
    }

    /// Starts a POSIX thread with `attributes` that runs the start at `argument`.
    private static func createPOSIXThread(
        attributes: UnsafePointer<pthread_attr_t>?, argument: UnsafeMutableRawPointer
    ) -> Result<pthread_t, SeamThreadError> {
        var thread = cshim_thread()
        let error = cshim_thread_create(&thread, attributes, threadBody, threadCleanup, argument)
        return error == 0
            ? .success(thread.handle) : .failure(SeamThreadError(operation: "pthread_create", code: error))
    }

    // The body and the controller are consumed: moved into the thread's start and slot, not
    // copied there, which retained what each holds once more for every thread.
    private static func create(
        attributes: UnsafePointer<pthread_attr_t>?,
        body: consuming ThreadStart.Body,
        controller: consuming (any SeamController)?,
        controlledID: SeamThreadID?,
        host: (any SeamThreadHost)? = nil
    ) -> Result<SeamThread, SeamThreadError> {
        let isCoroutine = host?.runsCoroutines == true
        if isCoroutine, let host, let controlledID, let controller {
            return createCoroutine(body: body, controller: controller, controlledID: controlledID, host: host)
        }
        // A coroutine is joined without one (see ``SeamThread/join(file:line:)``): one object,
        // and a retain for every copy of the thread's value, fewer for each thread.
        let completion = host != nil && !isCoroutine ? SeamThreadCompletion.make() : nil
        let start = ThreadStart.make(
            body, controller: controller, thread: controlledID, completion: completion, activatesSeam: !isCoroutine)
        // The start's one reference moves to the thread: passed as a copy, it was retained for
        // the thread and the copy released.
        let argument = Unmanaged.passRetained(consume start).toOpaque()
        // The host is asked where the caller holds it: bound to a name of its own, it was
        // retained for the call.
        let created =
            host.map { $0.run(threadBody, cleanup: threadCleanup, argument: argument, as: controlledID) }
            ?? createPOSIXThread(attributes: attributes, argument: argument)
        switch created {
        case .success(let handle):
            return .success(
                SeamThread(handle: handle, controlledID: controlledID, completion: completion, isCoroutine: isCoroutine)
            )
        case .failure(let error):
            let (slot, completion, _) = releaseThreadStart(argument)
            completion?.release()
            if let slot {
                slot._withUnsafeGuaranteedRef { $0.controller.threadSpawnFailed($0.thread) }
                slot.release()
            }
            return .failure(error)
        }
    }
}

extension Seam {
    /// Runs `body` as a coroutine of `host`, controlled by `controller` as `thread`: one object,
    /// its ``CoroutineStart``, where a thread on an OS thread has a start and a slot.
    private static func createCoroutine(
        body: consuming ThreadStart.Body,
        controller: consuming any SeamController,
        controlledID: SeamThreadID,
        host: any SeamThreadHost
    ) -> Result<SeamThread, SeamThreadError> {
        let start = CoroutineStart(body, controller: controller, thread: controlledID)
        let argument = Unmanaged.passRetained(consume start).toOpaque()
        switch host.run(coroutineBody, cleanup: coroutineCleanup, argument: argument, as: controlledID) {
        case .success(let handle):
            return .success(SeamThread(handle: handle, controlledID: controlledID, completion: nil, isCoroutine: true))
        case .failure(let error):
            let start = Unmanaged<CoroutineStart>.fromOpaque(argument)
            start._withUnsafeGuaranteedRef { $0.releaseBody() }
            start._withUnsafeGuaranteedRef { $0.controller.threadSpawnFailed($0.thread) }
            start.release()
            return .failure(error)
        }
    }
}

/// What a thread run as a coroutine needs, in one object that is also its seam slot: its
/// body until its cleanup releases it, its controller and its identity. A coroutine shares
/// its host's OS thread and is never cancelled (a controller moves an execution to OS threads
/// before it cancels one of its threads), so its body may be an optional released in place,
/// where a thread on an OS thread keeps its body in a start of its own (``ThreadStart``).
private final class CoroutineStart: ControllerSlot {
    private var body: ThreadStart.Body?

    init(_ body: consuming ThreadStart.Body, controller: consuming any SeamController, thread: SeamThreadID) {
        self.body = body
        super.init(controller: controller, thread: thread)
    }

    /// Runs the body under the controller: its host keeps the seam active for it.
    func run() {
        cshim_seam_set_current(Unmanaged.passUnretained(self).toOpaque())
        controller.threadDidStart(thread)
        switch body {
        case .closure(let closure)?:
            closure()
        case .throwing(let closure, let onError)?:
            do {
                try closure()
            } catch {
                onError(error)
            }
        case .function(let entry, let argument)?:
            entry(argument)
        case nil:
            break
        }
    }

    /// Releases the body, and what it captured, while the thread still runs under its
    /// controller (see ``releaseThreadStart(_:)``). Never inlined, as that function.
    @inline(never)
    func releaseBody() {
        body = nil
    }
}

private func coroutineBody(_ argument: UnsafeMutableRawPointer?) {
    Unmanaged<CoroutineStart>.fromOpaque(argument!)._withUnsafeGuaranteedRef { $0.run() }
}

/// Ends a coroutine's body as ``threadCleanup(_:)`` ends a thread's: the body released, the
/// controller told, the seam's slot cleared, and the start, which was the slot, released last.
private func coroutineCleanup(_ argument: UnsafeMutableRawPointer?) {
    let start = Unmanaged<CoroutineStart>.fromOpaque(argument!)
    start._withUnsafeGuaranteedRef { $0.releaseBody() }
    start._withUnsafeGuaranteedRef { $0.controller.threadWillExit($0.thread) }
    cshim_seam_set_current(nil)
    start.release()
}

/// Tells the joiner of a body run by a pooled OS thread of a ``SeamThreadHost`` that the body
/// has ended (a coroutine's join needs none: see ``SeamThread/join(file:line:)``). The parker
/// the joiner waits on is in the object's own allocation; the pooled thread and the joiner
/// touch it only through its atomics, which is what lets a ``SeamThread`` holding it be sent.
final class SeamThreadCompletion: ManagedBuffer<Void, cshim_completion> {
    /// A completion whose body has not ended and which no join has claimed.
    static func make() -> SeamThreadCompletion {
        let buffer = create(minimumCapacity: 1) { _ in }
        buffer.withUnsafeMutablePointerToElements { $0.initialize(to: cshim_completion()) }
        return unsafeDowncast(buffer, to: SeamThreadCompletion.self)
    }

    /// Called once, by the pooled thread, after everything the body's thread does.
    func signal() {
        withUnsafeMutablePointerToElements { cshim_completion_signal($0) }
    }

    /// Waits until the body has ended; false when another join already waited for it.
    func wait() -> Bool {
        withUnsafeMutablePointerToElements { cshim_completion_wait($0) }
    }
}

/// What a spawned thread needs: its body and, when controlled, its controller and identity.
/// Retained once for the thread and released by its C cleanup. The body is a subclass's
/// `let`, called in place: binding it to a local (say, from an enum payload) would retain it
/// in a frame that cancellation unwinds, and leak it even in optimized builds.
private class ThreadStart {
    enum Body {
        case closure(@Sendable () -> Void)
        case throwing(@Sendable () throws -> Void, onError: @Sendable (any Error) -> Void)
        case function(Seam.ThreadEntry, UnsafeMutableRawPointer?)
    }

    /// The thread's seam slot, when it is controlled. The start holds it unmanaged: retained
    /// for the thread when made, and released by the thread's cleanup once the controller
    /// heard that it exits, after the start (and the body with it) is gone. Held strongly,
    /// the cleanup took a copy of it before releasing the start, and released both.
    let slot: Unmanaged<ControllerSlot>?
    /// Signalled after the body's cleanup when it runs on a pooled OS thread of a
    /// ``SeamThreadHost``; held as ``slot`` is, and released by the cleanup once signalled.
    let completion: Unmanaged<SeamThreadCompletion>?
    /// Whether a controlled thread counts itself among the seam's active ones while it runs:
    /// not a coroutine, whose host counts for it (``SeamThreadHost/runsCoroutines``).
    let activatesSeam: Bool

    init(
        controller: consuming (any SeamController)?, thread: SeamThreadID?, completion: SeamThreadCompletion?,
        activatesSeam: Bool
    ) {
        if let controller, let thread {
            slot = Unmanaged.passRetained(ControllerSlot(controller: controller, thread: thread))
        } else {
            slot = nil
        }
        self.completion = completion.map(Unmanaged.passRetained)
        self.activatesSeam = activatesSeam
    }

    static func make(
        _ body: consuming Body,
        controller: consuming (any SeamController)?,
        thread: SeamThreadID?,
        completion: SeamThreadCompletion?,
        activatesSeam: Bool
    ) -> ThreadStart {
        switch consume body {
        case .closure(let closure):
            ClosureThreadStart(
                closure, controller: controller, thread: thread, completion: completion, activatesSeam: activatesSeam)
        case .throwing(let closure, let onError):
            ThrowingThreadStart(
                closure, onError: onError, controller: controller, thread: thread, completion: completion,
                activatesSeam: activatesSeam)
        case .function(let entry, let argument):
            FunctionThreadStart(
                entry, argument, controller: controller, thread: thread, completion: completion,
                activatesSeam: activatesSeam)
        }
    }

    final func run() {
        if let slot {
            if activatesSeam { cshim_seam_activate() }
            cshim_seam_set_current(slot.toOpaque())
            slot._withUnsafeGuaranteedRef { $0.controller.threadDidStart($0.thread) }
        }
        runBody()
    }

    func runBody() {}
}

private final class ClosureThreadStart: ThreadStart {
    let body: @Sendable () -> Void

    init(
        _ body: @escaping @Sendable () -> Void, controller: consuming (any SeamController)?, thread: SeamThreadID?,
        completion: SeamThreadCompletion?, activatesSeam: Bool
    ) {
        self.body = body
        super.init(controller: controller, thread: thread, completion: completion, activatesSeam: activatesSeam)
    }

    override func runBody() { body() }
}

private final class ThrowingThreadStart: ThreadStart {
    let body: @Sendable () throws -> Void
    let onError: @Sendable (any Error) -> Void

    init(
        _ body: @escaping @Sendable () throws -> Void, onError: @escaping @Sendable (any Error) -> Void,
        controller: consuming (any SeamController)?, thread: SeamThreadID?, completion: SeamThreadCompletion?,
        activatesSeam: Bool
    ) {
        self.body = body
        self.onError = onError
        super.init(controller: controller, thread: thread, completion: completion, activatesSeam: activatesSeam)
    }

    override func runBody() {
        do {
            try body()
        } catch {
            onError(error)
        }
    }
}

private final class FunctionThreadStart: ThreadStart {
    let entry: Seam.ThreadEntry
    let argument: UnsafeMutableRawPointer?

    init(
        _ entry: Seam.ThreadEntry, _ argument: UnsafeMutableRawPointer?, controller: consuming (any SeamController)?,
        thread: SeamThreadID?, completion: SeamThreadCompletion?, activatesSeam: Bool
    ) {
        self.entry = entry
        self.argument = argument
        super.init(controller: controller, thread: thread, completion: completion, activatesSeam: activatesSeam)
    }

    override func runBody() { entry(argument) }
}

private func threadBody(_ argument: UnsafeMutableRawPointer?) {
    Unmanaged<ThreadStart>.fromOpaque(argument!)._withUnsafeGuaranteedRef { $0.run() }
}

/// Ends a thread's body: releases it, tells its controller, clears the seam's slot, then
/// tells the joiner of a hosted body; the slot and the completion go last.
private func threadCleanup(_ argument: UnsafeMutableRawPointer?) {
    let (slot, completion, activatedSeam) = releaseThreadStart(argument!)
    if let slot {
        slot._withUnsafeGuaranteedRef { $0.controller.threadWillExit($0.thread) }
        cshim_seam_set_current(nil)
        if activatedSeam { cshim_seam_deactivate() }
        slot.release()
    }
    if let completion {
        completion._withUnsafeGuaranteedRef { $0.signal() }
        completion.release()
    }
}

/// Releases the thread's ``ThreadStart``, and with it the body and what the body captured,
/// and returns what the rest of the cleanup needs (the slot and the completion, which it
/// releases). It runs before the controller hears that the thread exits, while the thread
/// still runs under it: a deinit the release sets off (a
/// worker whose last reference the body held, stopping its thread through the seam) is then
/// this thread's step, at the same point of every run. Released after the controller had
/// handed control on, it raced with the next thread, and a deinit ran in one run as a step
/// of the thread and in another outside the harness, or in a later execution. Never inlined,
/// so that the release stays here, before the controller is told.
@inline(never)
private func releaseThreadStart(_ argument: UnsafeMutableRawPointer) -> (
    slot: Unmanaged<ControllerSlot>?, completion: Unmanaged<SeamThreadCompletion>?, activatedSeam: Bool
) {
    let start = Unmanaged<ThreadStart>.fromOpaque(argument)
    let parts = start._withUnsafeGuaranteedRef { ($0.slot, $0.completion, $0.activatesSeam) }
    start.release()
    return parts
}
