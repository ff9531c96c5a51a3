/// A one-shot event for one waiting task, made of a bare `CheckedContinuation` and a
/// pthread mutex: the least a signal-or-wait-first event costs without the seam, and the
/// baseline for `AsyncCondition`. Only one task may wait.
final class ContinuationEvent: @unchecked Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case signalled
    }

    private let mutex = PthreadMutex()
    /// Guarded by `mutex`.
    private var state = State.idle

    /// Returns once ``signal()`` has been called, at once if it has been already.
    func wait() async {
        let signalled = mutex.withLock {
            if case .signalled = state { return true }
            return false
        }
        if signalled { return }
        await withCheckedContinuation { continuation in
            let resumeNow = mutex.withLock {
                switch state {
                case .idle:
                    state = .waiting(continuation)
                    return false
                case .signalled:
                    return true
                case .waiting:
                    preconditionFailure("ContinuationEvent: a second task waits; it supports one")
                }
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Lets the waiter, present or future, go on.
    func signal() {
        let waiter: CheckedContinuation<Void, Never>? = mutex.withLock {
            defer { state = .signalled }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume()
    }
}
