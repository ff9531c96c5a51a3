import Foundation
import Harness
import Testing

/// The picture of a real failure rendered by a real headless browser: the screenshot must
/// show the page, and in it the highlight that matters (a conflict's colour, the cycle's red).
@Suite(
    "Harness: the picture of a failure in a browser",
    .enabled(if: HeadlessBrowser.executable != nil, HeadlessBrowser.installHint)
)
struct FailurePictureBrowserTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let scenario: @Sendable (Scenario) -> Void
        /// A colour the page's highlight is drawn in, as `0xRRGGBB`.
        let highlight: UInt32
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "lost update", scenario: HarnessScenarios.lostUpdate, highlight: 0x1f77b4),
        Case(name: "lock-order deadlock", scenario: HarnessScenarios.lockOrderInversion, highlight: 0xd62728)
    ]

    @Test("a real failure's picture renders, not blank, with its highlight", arguments: cases)
    func renders(_ example: Case) throws {
        let failure = try FailurePictureTests.failure("browser \(example.name)", example.scenario)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "harness-picture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("failure.html")
        try failure.picture.html.write(to: page, atomically: true, encoding: .utf8)

        let png = try HeadlessBrowser.screenshot(of: page, width: 1200, height: 800)
        let image = try PNGImage(png)
        #expect(image.width == 1200 && image.height == 800)
        let colours = image.colourCounts
        let pixels = image.width * image.height
        let background = colours.values.max() ?? 0
        // Measured: the page's white is 62–75% of the screenshot, with 1,700–2,400 colours.
        #expect(background < pixels * 9 / 10, "one colour covers \(background) of \(pixels) pixels: a blank page")
        #expect(colours.count >= 100, "only \(colours.count) colours: no text rendered")
        let highlighted = colours[example.highlight] ?? 0
        #expect(
            highlighted >= 100,
            "\(highlighted) pixels of the highlight colour 0x\(String(example.highlight, radix: 16))")
    }
}
