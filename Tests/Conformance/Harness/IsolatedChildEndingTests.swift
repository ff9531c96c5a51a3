@testable import Harness
import Testing

/// What the error of an isolated child that ended without a report says.
@Suite("Harness: the words for how an isolated child ended")
struct IsolatedChildEndingTests {
    @Test("each ending says when the child ended: before any schedule, or in which, with its token")
    func rendering() throws {
        let token = try ReplayToken(parsing: ChildTranscriptTests.token)
        let crashedEarly = "\(IsolatedChildEnding.crashed(signal: 11, lastSchedule: nil, cause: "Segmentation fault"))"
        #expect(
            crashedEarly == "the child process crashed (signal 11) and no scenario thread reported it, "
                + "before a schedule began\nSegmentation fault")
        let crashedLater = "\(IsolatedChildEnding.crashed(signal: 6, lastSchedule: token, cause: ""))"
        #expect(
            crashedLater == "the child process crashed (signal 6) and no scenario thread reported it, "
                + "after the beginning of schedule 0 (its token: \(token))\n")
        #expect(
            "\(IsolatedChildEnding.killed(signal: 9, tail: "last words"))"
                == "the child process was killed (signal 9) from outside before a schedule began\nlast words")
        let silent = "\(IsolatedChildEnding.silent(seconds: 35, lastSchedule: token, tail: ""))"
        #expect(silent.contains("no progress for 35.0 s"))
        #expect(silent.contains("was killed while running schedule 0 (its token: \(token))"))
    }
}
