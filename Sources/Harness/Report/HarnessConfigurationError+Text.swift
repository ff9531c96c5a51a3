/// The configuration errors in words.
extension HarnessConfigurationError: CustomStringConvertible {
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
                + "mend or delete \(line == nil ? "the file" : "the line"), "
                + "so its failing schedules guard the test again"
        }
    }
}

/// What makes kept failures unreadable, in words.
extension HarnessConfigurationError.KeptFailuresProblem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreadable(let reason):
            "it cannot be read: \(reason)"
        case .notUTF8:
            "it is not UTF-8 text"
        case .notAKeptFailure(let line):
            "expected 'fails SCENARIO TOKEN', found '\(line)'"
        case .otherScenario(let scenario):
            "its token was recorded for another scenario than '\(scenario)'"
        case .unreadableToken(let error):
            "its token cannot be read: \(error)"
        }
    }
}
