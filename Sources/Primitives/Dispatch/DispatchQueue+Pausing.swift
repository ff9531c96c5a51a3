import Dispatch

extension DispatchQueue {
    /// Runs `body` while this queue is paused, and resumes the queue when `body` returns or
    /// throws. Returns what `body` returns, or rethrows its error.
    ///
    /// ```swift
    /// let snapshot = queue.withPaused { cache.copy() }  // no block of `queue` runs meanwhile
    /// ```
    ///
    /// Guarantees, on serial and concurrent queues alike:
    /// - every block submitted to the queue before the call has finished before `body`
    ///   starts (the queue is drained, not only stopped);
    /// - no block of the queue runs while `body` runs;
    /// - blocks submitted while `body` runs (from any thread, including `body`) are kept and
    ///   start after the queue resumes, in their usual order.
    ///
    /// How: a synchronous barrier block waits for the blocks ahead of it and suspends the
    /// queue from inside, so that it is suspended before any later block can start
    /// (`suspend()` alone only stops blocks that have not started, and does not wait for
    /// running ones); `body` then runs on the calling thread and the queue is resumed.
    ///
    /// Not supported, and checked (the process traps with a message):
    /// - calling it from a block running on this queue (or on a queue targeting it), which
    ///   would wait for itself: checked with `dispatchPrecondition(condition: .notOnQueue)`;
    /// - the global concurrent queues, which ignore barriers and suspension, so nothing
    ///   would be paused: recognized by their labels (`com.apple.root.…`).
    ///
    /// Not checked: a queue that is already suspended (or inactive) never runs the barrier,
    /// so `withPaused` waits until someone else resumes (or activates) it.
    public func withPaused<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        precondition(
            !label.hasPrefix("com.apple.root."),
            "DispatchQueue.withPaused cannot pause the global queue '\(label)': global queues ignore barriers and "
                + "suspension"
        )
        dispatchPrecondition(condition: .notOnQueue(self))
        sync(flags: .barrier) { suspend() }
        defer { resume() }
        return try body()
    }
}
