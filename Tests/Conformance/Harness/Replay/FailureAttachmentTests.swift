import Foundation
import Testing

/// What `Harness.explore` attaches to the issue it records, kept with `--attachments-path`.
@Suite("Harness: a failure's attachments")
struct FailureAttachmentTests {
    @Test(
        "a failing exploration attaches its full trace and its picture", arguments: ["plainExplore", "isolatedExplore"])
    func attachments(test: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "harness-attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try TestProcess.run(
            ["--filter", "DemoFailures/\(test)", "--attachments-path", directory.path],
            environment: [DemoGate.variable: "1"]
        )
        #expect(outcome.status != 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let text = try #require(
            names.first { $0.hasPrefix("harness-") && $0.hasSuffix(".txt") }, "attachments: \(names)")
        let page = try #require(
            names.first { $0.hasPrefix("harness-") && $0.hasSuffix(".html") }, "attachments: \(names)")
        #expect(text.dropLast(4) == page.dropLast(5), "both are named after the failing execution")
        let html = try String(contentsOf: directory.appendingPathComponent(page), encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("an increment was lost"))
        #expect(html.contains("<path class=\"l0\""), "the lost update's conflicts are drawn")
    }
}
