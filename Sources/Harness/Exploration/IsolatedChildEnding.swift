/// How an isolated exploration's child process ended without a report of a failure that
/// replays: what ``HarnessError/isolatedChildFailed(scenario:ending:)`` carries. A child that
/// crashed on a scenario thread, or was killed from outside while running a schedule, comes
/// back instead as an ``ExecutionFailure`` with that schedule's token. Its words are in
/// `Report/` (``description``).
public enum IsolatedChildEnding: Sendable, Hashable {
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
}
