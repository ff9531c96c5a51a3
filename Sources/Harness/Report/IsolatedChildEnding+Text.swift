/// How an isolated child process ended, in words.
extension IsolatedChildEnding: CustomStringConvertible {
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
