import Harness
import Primitives
import Testing

/// The README's worked example for actors, `Task {}` and `Task.sleep`, in its scenario form as written
/// there: the search model that shows whichever answer lands last is found showing a stale
/// one (its 300 ms of server latency take no wall time), the one that drops stale answers
/// passes.
@Suite("Harness: the README's actors, Task {} and Task.sleep example")
struct ReadmeAsyncExampleTests {
    actor SearchModel {
        private(set) var shown = ""
        private var latest = 0
        let dropsStaleAnswers: Bool

        init(dropsStaleAnswers: Bool = false) { self.dropsStaleAnswers = dropsStaleAnswers }

        /// Sends `query` to the server in the background and shows its answer when it comes.
        func type(_ query: String, serverLatency: Duration) {
            latest += 1
            let request = latest
            Task {
                try await Task.sleep(for: serverLatency)
                self.show("results for \(query)", answering: request)
            }
        }

        private func show(_ answer: String, answering request: Int) {
            if dropsStaleAnswers, request != latest { return }
            shown = answer
        }
    }

    static func scenario(dropsStaleAnswers: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let model = SearchModel(dropsStaleAnswers: dropsStaleAnswers)
            scenario.task {
                await model.type("swi", serverLatency: .milliseconds(300))
                await model.type("swift", serverLatency: .milliseconds(300))
            }
            scenario.joinAll()
            let shown = HarnessMutex("")
            scenario.task {
                let answer = await model.shown
                shown.withLock { $0 = answer }
            }
            scenario.joinAll()
            let answer = shown.withLock { $0 }
            Harness.check(answer == "results for swift", "the search box shows '\(answer)'")
        }
    }

    static var options: ExplorationOptions {
        var options = ExplorationOptions(schedules: 500, seed: 1, keepsFailures: false)
        options.isolation = .process
        return options
    }

    @Test("the model that shows whichever answer lands last is found showing a stale one")
    func staleAnswerShown() throws {
        let report = try Harness.run("search box", options: Self.options, Self.scenario(dropsStaleAnswers: false))
        let failure = try #require(report.failure)
        #expect("\(failure.reason)".contains("the search box shows 'results for swi'"), "\(failure.reason)")
    }

    @Test("the model that drops stale answers passes")
    func staleAnswersDropped() throws {
        let report = try Harness.run("search box fixed", options: Self.options, Self.scenario(dropsStaleAnswers: true))
        #expect(report.failure == nil)
    }
}
