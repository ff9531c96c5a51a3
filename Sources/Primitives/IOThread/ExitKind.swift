/// How an ``IOThread`` ended, as its ``IOThread/onExit(_:)`` handlers are told.
public enum ExitKind: Sendable, Hashable, CustomStringConvertible {
    /// The body returned. A kill requested too late to stop it does not change that.
    case finished
    /// The thread was killed before its body returned: at a cancellation point inside the
    /// body, or before the body was entered (then the body never ran). A body that ends its
    /// thread itself, with `pthread_exit`, counts as killed too: it did not return.
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
