import CShim

/// The calling thread's POSIX cancellation settings (`pthread_setcancelstate` and
/// `pthread_setcanceltype`), every return code checked.
@usableFromInline
enum ThreadCancellation {
    /// Sets whether a cancellation request acts on the calling thread; returns whether it did
    /// before. Enabling it with asynchronous cancellation and a request pending acts on the
    /// request at once.
    @usableFromInline
    @discardableResult
    static func setEnabled(_ enabled: Bool) -> Bool {
        var previous: Int32 = 0
        let state = Int32(enabled ? PTHREAD_CANCEL_ENABLE : PTHREAD_CANCEL_DISABLE)
        check(pthread_setcancelstate(state, &previous), "pthread_setcancelstate")
        return previous == Int32(PTHREAD_CANCEL_ENABLE)
    }

    /// Sets when a cancellation request acts on the calling thread.
    static func setType(_ type: IOThreadCancellationType) {
        var previous: Int32 = 0
        check(pthread_setcanceltype(type.posixValue, &previous), "pthread_setcanceltype")
    }

    /// Runs `body` with cancellation of the calling thread disabled and then restores the
    /// previous setting, however `body` exits. A request made meanwhile stays pending.
    @inlinable
    static func withDisabled<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let wasEnabled = setEnabled(false)
        defer {
            if wasEnabled { setEnabled(true) }
        }
        return try body()
    }
}
