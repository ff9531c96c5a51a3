/// An invalid exploration setting.
public enum HarnessConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case let .invalid(setting, value, expected):
            "\(setting)='\(value)' is invalid: expected \(expected)"
        case let .badReplayToken(setting, error):
            "\(setting) holds a token that cannot be replayed: \(error)"
        case let .unknownVariable(name, nearest):
            "\(name) is not a variable the harness reads" + (nearest.map { ": did you mean \($0)?" } ?? "")
                + " (the README's tables list every HARNESS_ variable)"
        case let .corruptKeptFailures(file, line, problem):
            "the kept failures in \(file)\(line.map { ", line \($0)," } ?? "") cannot be read: \(problem); "
                + "mend or delete \(line == nil ? "the file" : "the line"), so its failing schedules guard the test again"
        }
    }
}
