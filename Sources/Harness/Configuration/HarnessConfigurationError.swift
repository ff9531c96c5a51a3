/// An invalid exploration setting; its words are in `Report/` (``description``).
public enum HarnessConfigurationError: Error, Sendable, Hashable {
    /// `setting` (an environment variable, or an ``ExplorationOptions`` property) holds
    /// `value`, which is not what it expects.
    case invalid(setting: String, value: String, expected: String)
    /// `setting` holds a replay token that cannot be replayed here.
    case badReplayToken(setting: String, ReplayTokenError)
    /// The environment sets `name`, a `HARNESS_` variable the harness does not read (see
    /// ``Knob``); `nearest` is the knob it most likely meant.
    case unknownVariable(name: String, nearest: String?)
    /// The kept failures in `file` cannot be read: the whole file (`line` is `nil`), or its
    /// line `line`, counted from 1.
    case corruptKeptFailures(file: String, line: Int?, problem: KeptFailuresProblem)

    /// What makes a file of kept failures, or one of its lines, unreadable.
    public enum KeptFailuresProblem: Sendable, Hashable {
        /// The file cannot be read; `reason` is the system's.
        case unreadable(reason: String)
        /// The file is not UTF-8 text.
        case notUTF8
        /// The line is not `fails SCENARIO TOKEN`; `line` is its beginning, as the file holds it.
        case notAKeptFailure(line: String)
        /// The line's token was recorded for another scenario than the line's, `scenario`.
        case otherScenario(String)
        /// The line's token cannot be read.
        case unreadableToken(ReplayTokenError)
    }
}
