/// How an ``IOThread`` ended, as its ``IOThread/onExit(_:)`` handlers are told.
public enum ExitKind: Sendable, Hashable, CustomStringConvertible {
    /// The body returned. A kill requested too late to stop it does not change that.
    case finished
    /// The thread was killed before its body returned: at a cancellation point inside the
    /// body, or before the body was entered (then the body never ran).
    case killed

    /// Whether the thread was killed before its body returned.
    public var wasKilled: Bool { self == .killed }

    public var description: String {
        switch self {
        case .finished: "finished"
        case .killed: "killed"
        }
    }
}

/// What ``IOThread/onExit(_:)`` did with a handler.
public enum OnExitRegistration: Sendable, Hashable, CustomStringConvertible {
    /// The thread had not finished exiting: the exiting thread will run the handler, after
    /// every handler registered before it.
    case registered
    /// The thread had already exited: the handler has run, on the calling thread, before
    /// `onExit` returned, and was told this exit kind.
    case ranImmediately(ExitKind)

    public var description: String {
        switch self {
        case .registered: "registered"
        case .ranImmediately(let kind): "ran immediately (\(kind))"
        }
    }
}
