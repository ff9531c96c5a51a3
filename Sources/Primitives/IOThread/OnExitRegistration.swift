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
