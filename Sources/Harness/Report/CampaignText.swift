/// What a campaign says besides its findings, and what a test run says when it ends
/// (``RunState``) besides its summary table.
enum CampaignText {
    /// Why `scenario` is skipped: the token in `HARNESS_REPLAY` was recorded for another.
    static func skipped(_ scenario: String) -> String {
        "skipped '\(scenario)': \(Knob.replay) holds a token recorded for another scenario"
    }

    /// Why the run fails: the token in `HARNESS_REPLAY`, `token`, fitted none of the scenarios
    /// in `missed`.
    static func replayFittedNothing(token: String, missed: [String]) -> String {
        let shown = missed.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
        let more = missed.count > 5 ? " and \(missed.count - 5) more" : ""
        return """
            error: \(Knob.replay)='\(token)' fits none of the \(missed.count) scenarios this run explored \
            (\(shown)\(more)), so nothing was replayed. Run the command the failure printed, unchanged: its --filter \
            selects the test that recorded the token, and the scenario's name must be the one it had then.
            """
    }

    /// The note naming the knobs `unread`, which the environment set but no front door of the
    /// run reads: each with the front doors that do.
    static func unread(_ unread: [Knob]) -> String {
        let lines = unread.map { knob in
            let readers = Knob.FrontDoor.allCases.filter(knob.readBy.contains).map(\.rawValue)
            return "  \(knob.name) (read by \(readers.joined(separator: ", ")))"
        }
        return (["note: this run set variables that none of its campaigns read:"] + lines).joined(separator: "\n")
    }
}
