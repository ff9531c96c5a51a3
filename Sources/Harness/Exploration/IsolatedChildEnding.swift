/// How an isolated exploration's child process ended without a report of a failure that
/// replays: what ``HarnessError/isolatedChildFailed(scenario:ending:)`` carries. A child that
/// crashed on a scenario thread, or was killed from outside while running a schedule, comes
/// back instead as an ``ExecutionFailure`` with that schedule's token.
public enum IsolatedChildEnding: Sendable, Hashable, CustomStringConvertible {
    /// The parent could not encode its options for the child: `error` says why.
    case optionsNotEncoded(error: String)
    /// The child process could not start: `error` says why.
    case notStarted(error: String)
    /// The child showed no progress for `seconds` (the stall timeout plus
    /// ``Harness/childGraceSeconds``) and the parent killed it; `lastSchedule` is the token
    /// of the schedule it was running (`nil`: none had begun), `tail` the last it wrote.
    case silent(seconds: Double, lastSchedule: ReplayToken?, tail: String)
    /// The child crashed with `signal` and no scenario thread reported the crash (a crashing
    /// scenario thread prints its schedule's token): a thread of the harness or of the test
    /// crashed, before a schedule began (`lastSchedule` is `nil`) or after the schedule of
    /// `lastSchedule` began. `cause` holds the runtime's message and the frames it printed.
    case crashed(signal: Int32, lastSchedule: ReplayToken?, cause: String)
    /// A signal from outside ended the child (SIGKILL: `kill -9`, the OOM killer) before a
    /// schedule began; `tail` is the last it wrote.
    case killed(signal: Int32, tail: String)
    /// The child exited with `status` without sending its report; `tail` is the last it wrote.
    case exited(status: Int32, tail: String)

    public var description: String {
        switch self {
        case .optionsNotEncoded(let error):
            "its options could not be encoded for the child: \(error)"
        case .notStarted(let error):
            "the child process could not start: \(error)"
        case let .silent(seconds, lastSchedule, tail):
            "the child process showed no progress for \(seconds) s (the stall timeout plus "
                + "\(Harness.childGraceSeconds) s) and was killed "
                + "\(Self.when(lastSchedule, "while running schedule"))\n\(tail)"
        case let .crashed(signal, lastSchedule, cause):
            "the child process crashed (signal \(signal)) and no scenario thread reported it, "
                + "\(Self.when(lastSchedule, "after the beginning of schedule"))\n\(cause)"
        case let .killed(signal, tail):
            "the child process was killed (signal \(signal)) from outside before a schedule began\n\(tail)"
        case let .exited(status, tail):
            "the child process exited with status \(status) without a report\n\(tail)"
        }
    }

    /// When the child ended: `relation` the schedule of `token`, named with its token, or
    /// before the first schedule.
    private static func when(_ token: ReplayToken?, _ relation: String) -> String {
        token.map { "\(relation) \($0.execution) (its token: \($0))" } ?? "before a schedule began"
    }
}
