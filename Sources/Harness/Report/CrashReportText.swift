/// What the process prints when a controlled thread crashes: the text around the schedule
/// so far, which a signal handler writes in base64url between the two parts.
enum CrashReportText {
    /// For a person at a terminal: the scenario and the command that replays the crash.
    case forPerson
    /// For the parent of an isolated child: one line holding the token.
    case forParent

    /// The line that starts a crash report for the parent, followed by the token.
    static var parentMarker: String { ChildChannel.crashMarker }

    /// The text before and after the schedule's steps, for a crash of execution
    /// `tokenPrefix` (a token without steps) of `scenario`, found by the test `testID`.
    func text(scenario: String, tokenPrefix: String, testID: String?) -> (prefix: String, suffix: String) {
        switch self {
        case .forPerson:
            let placeholder = "\u{1}"
            let command = HarnessFailure.replayCommand(token: tokenPrefix + placeholder, testID: testID, maxSteps: nil)
            let parts = command.split(separator: placeholder, maxSplits: 1, omittingEmptySubsequences: false)
            return (
                "\nA thread crashed in scenario '\(scenario)'. Replay the crash with:\n\(parts[0])", "\(parts[1])\n"
            )
        case .forParent:
            return ("\n\(Self.parentMarker)\(tokenPrefix)", "\n")
        }
    }
}
