import CShim

/// A POSIX thread that runs one body and can be killed with `pthread_cancel`, with handlers
/// told whether it finished or was killed.
///
/// For work that has no way to stop, such as a `read` that may block forever: run it on an
/// `IOThread` and ``kill()`` it. A kill takes effect at the body's next cancellation point
/// (a blocking system call, or ``IOThreadControl/checkCancellation(file:line:)``) under the
/// default deferred cancellation; a kill before the body is entered keeps it from running.
///
/// Every handler registered with ``onExit(_:)`` runs exactly once, in registration order,
/// told how the thread ended: ``ExitKind/finished`` if and only if the body returned. A
/// handler registered after the thread exited runs at once on the registering thread.
///
/// What a killed body owned is not released: Swift `defer` blocks and releases do not run
/// in the frames a kill unwinds. Release resources from an `onExit` handler, and keep
/// critical sections (and locks) in ``IOThreadControl/uncancellably(_:)``. In unoptimized
/// builds this includes what the body closure captured, because Swift calls a copy of the
/// closure from a frame the kill unwinds; optimized builds release it. So do not capture
/// the `IOThread` in its own body. The `IOThread` itself leaks nothing in any build: the
/// thread holds it until its handlers have run, then lets it go.
///
/// A joinable thread is reaped by ``join()``, or, if never joined, detached when the
/// `IOThread` is deinitialized; a detached one is reaped by the system.
public final class IOThread: Sendable, CustomStringConvertible {
    /// What the thread runs, lent a control for cooperating with kills.
    public typealias Body = @Sendable (borrowing IOThreadControl) -> Void

    /// The thread's name, set on the OS thread when it starts (Linux keeps the first 15 bytes).
    public let name: String
    /// The stack size in bytes, or `nil` for the platform's default (8 MiB on Linux). At least
    /// ``minimumStackSize`` and a multiple of the page size, or ``start()`` refuses it with
    /// ``IOThreadStartResult/invalidAttribute(_:)``.
    public let stackSize: Int?
    /// Whether the thread must be reaped with ``join()``, rather than by the system at exit.
    public let isJoinable: Bool
    /// The scheduling policy the thread runs under.
    public let schedulePolicy: IOThreadSchedulePolicy
    /// When a kill takes effect on the body.
    public let cancellationType: IOThreadCancellationType

    let body: Body
    let lifecycle: AtomicBox<IOThreadLifecycle>

    /// The smallest ``stackSize`` ``start()`` accepts: 64 KiB, or the platform's
    /// `PTHREAD_STACK_MIN` where that is larger. A smaller request is refused with
    /// ``IOThreadAttributeProblem/stackSizeBelowMinimum(requested:minimum:)``.
    ///
    /// Swift code needs far more than `PTHREAD_STACK_MIN` (16 KiB on Linux): glibc takes the
    /// guard page, the static thread-local storage and its thread descriptor from the same
    /// stack, and the Swift runtime's first lookup of a generic type runs deep. Measured on
    /// Linux x86_64 with Swift 6.3.1, in this package's test binary, each size in three fresh
    /// processes so that the thread was the first to use its types: an empty body, and a small
    /// one (string interpolation, an array, an ``AtomicBox`` update), ran on 20 KiB
    /// unoptimized and 16 KiB optimized; the first use of a nested generic type on 24 KiB
    /// unoptimized and 20 KiB optimized; `String(format:)` written to a `FileHandle` on 24 KiB
    /// either way (28 KiB under AddressSanitizer). With 16 KiB even an empty body crashed,
    /// unoptimized, in the Swift runtime, in the thread's exit path. 64 KiB leaves more than
    /// twice the largest, for deeper first uses and programs with more thread-local storage.
    /// It does not make every body safe: one that recurses or keeps large values on the stack
    /// needs more.
    public static let minimumStackSize = max(64 * 1024, Int(cshim_thread_stack_minimum()))

    /// Creates a thread that runs `body` once started.
    ///
    /// - Parameters:
    ///   - name: The OS thread's name.
    ///   - stackSize: The stack size in bytes, or `nil` for the platform's default; at least
    ///     ``minimumStackSize``.
    ///   - joinable: Whether the thread is reaped with ``join()`` (`true`) or by the system
    ///     when it exits (`false`, the default).
    ///   - schedulePolicy: The scheduling policy; the default inherits the caller's.
    ///   - cancellationType: When a kill takes effect; the default, deferred, is the only
    ///     safe choice for bodies that allocate.
    ///   - body: What the thread runs.
    public init(
        name: String = "IOThread",
        stackSize: Int? = nil,
        joinable: Bool = false,
        schedulePolicy: IOThreadSchedulePolicy = .other,
        cancellationType: IOThreadCancellationType = .deferred,
        body: @escaping Body
    ) {
        self.name = name
        self.stackSize = stackSize
        self.isJoinable = joinable
        self.schedulePolicy = schedulePolicy
        self.cancellationType = cancellationType
        self.body = body
        lifecycle = AtomicBox(IOThreadLifecycle(joinable: joinable))
    }

    deinit {
        if let thread = lifecycle.update({ $0.unreapedThread }) {
            check(pthread_detach(thread.handle), "pthread_detach")
        }
    }

    /// Launches the thread, with the configured attributes. Only the first successful call
    /// launches one; a failed call launches nothing and may be repeated.
    @discardableResult
    public func start(file: StaticString = #fileID, line: UInt = #line) -> IOThreadStartResult {
        lifecycle.update(file: file, line: line) { lifecycle in
            guard lifecycle.canLaunch else { return .alreadyStarted }
            return launch { thread in lifecycle.launched(thread, at: Seam.now()) }
        }
    }

    /// Requests the thread's end. Returns whether this call requested it:
    ///
    /// - before ``start()``, or once a kill was requested: `false`, and nothing happens;
    /// - after `start()` and before the thread entered its body: `true`; the body never runs
    ///   and the thread exits ``ExitKind/killed``;
    /// - while the body runs: `true`; the thread is cancelled (`pthread_cancel`) and exits
    ///   ``ExitKind/killed`` at its next cancellation point, unless the body returns first,
    ///   which makes it ``ExitKind/finished``;
    /// - once the body has returned, or the thread was killed: `false`, and nothing happens.
    ///
    /// The thread is never cancelled once it has begun exiting, so the handle is always valid.
    @discardableResult
    public func kill(file: StaticString = #fileID, line: UInt = #line) -> Bool {
        lifecycle.update(file: file, line: line) { lifecycle in
            switch lifecycle.kill() {
            case .ignore:
                return false
            case .preventEntry:
                return true
            case .cancel(let thread):
                do {
                    try thread.cancel(file: file, line: line)
                } catch {
                    preconditionFailure("IOThread.kill: \(error) for a thread that cannot have exited")
                }
                return true
            }
        }
    }

    /// Registers `handler` to run once when the thread exits, told how it ended.
    ///
    /// Handlers run on the exiting thread, one after the other in registration order, after
    /// the body returned or was killed (including handlers registered by a running handler,
    /// and before ``start()``). Registering after the thread exited runs `handler` at once,
    /// on the calling thread, and returns ``OnExitRegistration/ranImmediately(_:)``. A
    /// thread that is never started never runs its handlers.
    @discardableResult
    public func onExit(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ handler: @escaping @Sendable (ExitKind) -> Void
    ) -> OnExitRegistration {
        switch lifecycle.update(file: file, line: line, { $0.register(handler) }) {
        case .queued:
            return .registered
        case .runNow(let kind):
            handler(kind)
            return .ranImmediately(kind)
        }
    }

    /// Waits until a joinable thread has exited and reaps it, whatever state it is in, and
    /// says what happened; see ``IOThreadJoinResult``. Only one call reaps the thread.
    ///
    /// A cancellation point: a thread killed while waiting here leaves this thread unreaped,
    /// to be joined later. Two threads joining each other is a programmer error that traps
    /// where the system detects it.
    @discardableResult
    public func join(file: StaticString = #fileID, line: UInt = #line) -> IOThreadJoinResult {
        let action = lifecycle.update(file: file, line: line) { $0.beginJoin(calledFrom: cshim_thread_self()) }
        switch action {
        case .report(let result):
            return result
        case .join(let thread):
            reap(thread, file: file, line: line)
            return .joined(lifecycle.update(file: file, line: line) { $0.joinFinished() })
        }
    }

    /// What has happened to the thread so far.
    public var state: IOThreadState { lifecycle.update { $0.state } }

    /// How the thread ended, once it has begun running its handlers; `nil` before.
    public var exitKind: ExitKind? { lifecycle.update { $0.exitKind } }

    /// The time since ``start()`` launched the thread, on ``Seam/now()``'s clock (it keeps
    /// growing after the thread exits); `nil` before.
    public var age: Duration? {
        lifecycle.update { $0.launchedAt }.map { $0.duration(to: Seam.now()) }
    }

    /// Whether a kill was requested while it could still stop the body.
    var killWasRequested: Bool { lifecycle.update { $0.killRequested } }

    /// The name, state and configuration, such as
    /// `IOThread("reader", [started, entered], policy: other, cancellation: deferred, stack: default, detached)`.
    public var description: String {
        let stack = stackSize.map { "\($0) bytes" } ?? "default"
        return "IOThread(\"\(name)\", [\(state)], policy: \(schedulePolicy), cancellation: \(cancellationType), "
            + "stack: \(stack), \(isJoinable ? "joinable" : "detached"))"
    }
}
