import Fixtures
import Foundation
import Harness
import Testing

@Suite("Regression corpus: kept schedules replay as recorded")
struct RegressionCorpusTests {
    @Test("every kept schedule replays to its expectation", arguments: try RegressionCorpus.load())
    func replay(entry: RegressionCorpus.Entry) throws {
        let body = try #require(RegressionCorpus.scenarios[entry.scenario])
        let report = try Harness.run(entry.scenario, options: ExplorationOptions(replay: entry.token), body)
        // Exactly: a schedule the code leaves part way (a search from there may fail or pass
        // by chance) is one the corpus no longer keeps.
        switch entry.expectation {
        case .fails:
            #expect(report.failure != nil, "\(entry) no longer fails: \(String(describing: report.notReproduced))")
            #expect(
                report.failure?.reproduction == .exact,
                "\(entry) fails, but not on its schedule: \(String(describing: report.failure?.reproduction))")
        case .passes:
            #expect(report.failure == nil, "\(entry) fails: \(String(describing: report.failure?.reason))")
            #expect(
                report.schedulesRun == 1 && report.notReproduced?.divergence == nil,
                "\(entry) left its schedule: \(String(describing: report.notReproduced))")
        }
    }

    @Test("a corpus line that cannot be read is named")
    func malformed() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "corpus-\(UInt64.random(in: 0 ... .max)).txt")
        try "# kept schedules\nfails no-such-scenario H4.0.random.0.0.AAAA\n".write(
            to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            _ = try RegressionCorpus.load(from: url)
        } throws: { error in
            "\(error)" == "Tokens/regressions.txt, line 2: no scenario is named 'no-such-scenario'"
        }
    }
}
