/// How replaying a token reproduced a failure.
public enum ReplayReproduction: Sendable, Hashable, Codable {
    /// The code followed the token to the failure.
    case exact
    /// The code left the token as `divergence` says; keeping the token's steps up to there
    /// and searching on (seeded, with the strategy that recorded the token), schedule
    /// `schedules` of the search failed. Its own token replays it exactly.
    case prefixAndSearch(divergence: FailureNotReproduced.Divergence, schedules: Int)
}

/// A replayed token whose failure did not happen again: the code was fixed, or changed so
/// that the schedule no longer leads to it. A replay that finds no failure passes; the
/// report says this, so the person confirming a fix knows what was replayed.
public struct FailureNotReproduced: Sendable, Hashable, Codable {
    /// How many steps the token holds.
    public let tokenSteps: Int
    /// Where the code left the token (its first step that did not happen as recorded) and
    /// how; `nil` when the code followed every step of the token and did not fail.
    public let divergence: Divergence?
    /// How many schedules ran: one when the code followed the token to its end; else the
    /// seeded search from the point of divergence, with the exploration's budget.
    public let schedulesRun: Int

    /// Where and how a replay left its token; ``detail`` (in `Report/`) says how in words.
    public struct Divergence: Sendable, Hashable, Codable {
        /// The first step, from 0, that did not happen as the token recorded it.
        public let step: Int
        /// What the token recorded there and what the code did instead.
        let departure: Departure

        /// How the code left the token at a step. Indirect, so that a divergence is two words:
        /// every execution's record carries an optional one, and the search tests and
        /// copies it, which cost a copy of a whole ``TraceStep`` each time.
        indirect enum Departure: Sendable, Hashable, Codable {
            /// The execution went on past the token's last step; the token has `tokenSteps`.
            case pastLastStep(tokenSteps: Int)
            /// The token runs `expected`, which cannot run here; `runnable` are the threads that
            /// could, each with the operation it waits to do.
            case cannotRun(expected: EncodedStep, runnable: [EncodedStep])
            /// The code chose among `queued` queued jobs; the token has `recorded` there, or no
            /// more steps (`nil`).
            case jobChoice(queued: Int, recorded: EncodedStep?)
            /// The token has `recorded`; the code took `taken`.
            case otherStep(recorded: EncodedStep, taken: TraceStep)
            /// The execution ended after `steps` steps; the token has `tokenSteps`.
            case endedEarly(steps: Int, tokenSteps: Int)
        }
    }
}
