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
    case corruptKeptFailures(file: String, line: Int?, problem: String)
}
