import Testing

extension Harness {
    /// Records a failing issue whose headline is the failure itself: the first line of
    /// `text` follows the issue's location on the line Swift Testing marks with ✘, and the
    /// rest comes after it. (An issue recorded from a comment alone is headed "Issue
    /// recorded"; one recorded from an error is headed by the error's description.)
    static func recordIssue(_ text: String, sourceLocation: SourceLocation) {
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let rest = lines.count > 1 ? Comment(rawValue: String(lines[1])) : nil
        Issue.record(Headline(text: String(lines.first ?? "")), rest, sourceLocation: sourceLocation)
    }

    /// The first line of a failure, recorded as the error an issue is headed by.
    private struct Headline: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }
}
