/// What ``IOThread/join()`` did.
public enum IOThreadJoinResult: Sendable, Hashable, CustomStringConvertible {
    /// The thread has exited, this call reaped it, and every handler registered before its
    /// exit has returned. Carries how the thread ended.
    case joined(ExitKind)
    /// ``IOThread/start()`` has not launched the thread; nothing to join.
    case notStarted
    /// The thread was created detached (`joinable: false`); the system reaps it.
    case notJoinable
    /// An earlier `join()` reaped the thread.
    case alreadyJoined
    /// Another thread is inside `join()` for this thread; this call returned without waiting.
    case alreadyBeingJoined
    /// The call came from the thread itself (its body or a handler), which cannot wait for
    /// its own end.
    case calledFromOwnThread

    public var description: String {
        switch self {
        case .joined(let kind): "joined (\(kind))"
        case .notStarted: "not started"
        case .notJoinable: "not joinable"
        case .alreadyJoined: "already joined"
        case .alreadyBeingJoined: "already being joined"
        case .calledFromOwnThread: "called from its own thread"
        }
    }
}
