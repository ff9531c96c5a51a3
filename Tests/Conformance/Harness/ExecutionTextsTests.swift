@testable import Harness
import Testing

@Suite("Harness: the texts that name an execution")
struct ExecutionTextsTests {
    /// Numbers of the same width one after another (0 then 7, 10 then 11) rewrite only the
    /// digits; a change of width lays the text out again.
    @Test("each execution's texts are their templates with its number in place of every stand-in")
    func numbersReplaceStandIns() {
        let texts = ExecutionTexts(
            token: "H4.seed.random.\u{2}.", crashPrefix: "\u{2} crashed (execution \u{2}): ", crashSuffix: "\n",
            standIn: 2)
        for number in [0, 7, 10, 11, 12_345, 54_321, 9, Int.max, -3, Int.min, 0] {
            texts.name(execution: number)
            let named = texts.withCStrings { token, prefix, suffix in
                [String(cString: token), String(cString: prefix), String(cString: suffix)]
            }
            #expect(named == ["H4.seed.random.\(number).", "\(number) crashed (execution \(number)): ", "\n"])
        }
    }
}
