/// What an ``IOThread``'s body receives to cooperate with kills.
///
/// It is lent to the body (`borrowing`) and cannot be copied, so it cannot outlive the body
/// or leave its thread: it holds no reference count, and a body killed while holding it
/// leaks nothing of it.
public struct IOThreadControl: ~Copyable {
    /// The thread running the body, which keeps it alive until the body has ended.
    private unowned(unsafe) let thread: IOThread

    init(thread: IOThread) {
        self.thread = thread
    }

    /// Whether ``IOThread/kill()`` requested this thread's end. The kill takes effect at the
    /// body's next cancellation point (with deferred cancellation); a body that cannot reach
    /// one can poll this and return early.
    public var wasCancelled: Bool { thread.killWasRequested }

    /// Runs `body` with cancellation of this thread disabled, so a kill cannot interrupt it,
    /// and then restores the previous setting, however `body` exits (it may nest). A kill
    /// requested meanwhile stays pending and takes effect at the next cancellation point
    /// after `body` returns (at once with asynchronous cancellation).
    public func uncancellably<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try ThreadCancellation.withDisabled(body)
    }

    /// A cancellation point (``Seam/cancellationPoint(file:line:)``): if a kill was requested
    /// and cancellation is enabled, the thread ends here, its handlers told
    /// ``ExitKind/killed``.
    public func checkCancellation(file: StaticString = #fileID, line: UInt = #line) {
        Seam.cancellationPoint(file: file, line: line)
    }
}
