import CShim

/// When a kill (``IOThread/kill()``) takes effect on a running ``IOThread`` body.
public enum IOThreadCancellationType: Sendable, Hashable, CustomStringConvertible {
    /// At the body's next cancellation point: a blocking system call such as `read`,
    /// `write`, `sleep` or a condition wait, or ``IOThreadControl/checkCancellation(file:line:)``.
    /// The default, and the only safe choice for code that allocates, locks or calls into
    /// libraries.
    case deferred
    /// At any instruction. Only for bodies that never allocate memory, take locks or call
    /// code that may: a thread killed inside `malloc` leaves its lock held and deadlocks
    /// the process (measured on glibc), and Swift allocates and retains implicitly. What the
    /// interrupted frames held is leaked, and a kill landing between the body's return and
    /// the thread recording it reports ``ExitKind/killed``.
    case asynchronous

    /// The `PTHREAD_CANCEL_` constant.
    var posixValue: Int32 {
        switch self {
        case .deferred: Int32(PTHREAD_CANCEL_DEFERRED)
        case .asynchronous: Int32(PTHREAD_CANCEL_ASYNCHRONOUS)
        }
    }

    public var description: String {
        switch self {
        case .deferred: "deferred"
        case .asynchronous: "asynchronous"
        }
    }
}
