import CShim
import Foundation

/// How an isolated child ended that sent no report, told from its exit, what it wrote and
/// its schedule record.
enum ChildExit: Equatable {
    /// A scenario thread crashed with `signal`, and the crash report gave the schedule's token.
    case crashedInSchedule(signal: Int32, token: ReplayToken)
    /// A signal from outside (not a crash signal) ended the child running the schedule of `token`.
    case killedInSchedule(signal: Int32, token: ReplayToken)
    /// The parent killed the child for showing no progress.
    case timedOut
    /// A crash signal ended the child and no scenario thread reported it (a crashing scenario
    /// thread prints its schedule's token): the thread was not a scenario's.
    case crashedOutsideScenario(signal: Int32)
    /// A signal from outside ended the child before any schedule began.
    case killedBeforeSchedule(signal: Int32)
    /// The child exited by itself with `status`.
    case exited(status: Int32)

    /// How a child ended for `reason` with `status` (its exit status, or the signal that
    /// ended it), given whether the parent killed it for showing no progress, the token a
    /// crash report gave, and the last schedule its record holds. A crash signal (SIGSEGV,
    /// SIGABRT, …) is the child's own doing; any other signal (SIGKILL, SIGTERM) came from
    /// outside.
    init(
        reason: Process.TerminationReason,
        status: Int32,
        timedOut: Bool,
        crashToken: ReplayToken?,
        lastSchedule: ReplayToken?
    ) {
        if timedOut {
            self = .timedOut
        } else if reason == .exit {
            self = .exited(status: status)
        } else if cshim_is_crash_signal(status) {
            self =
                crashToken.map { .crashedInSchedule(signal: status, token: $0) }
                ?? .crashedOutsideScenario(signal: status)
        } else {
            self =
                lastSchedule.map { .killedInSchedule(signal: status, token: $0) }
                ?? .killedBeforeSchedule(signal: status)
        }
    }
}
