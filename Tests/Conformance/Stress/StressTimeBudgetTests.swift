@testable import Harness
import Foundation
import Synchronization
import Testing

/// A stress run's time budget, fixed or adapting within a cap: decided as a value, set by an
/// option or `HARNESS_STRESS_MAX_SECONDS`, and followed by the run.
@Suite("Stress: a time budget that adapts while new outcomes appear, within a cap")
struct StressTimeBudgetTests {
    @Test("without a cap the run ends at its budget, whatever it saw")
    func fixed() {
        let budget = StressTimeBudget(budget: .seconds(1), cap: nil)
        #expect(budget.end(lastNewOutcome: .zero) == .seconds(1))
        #expect(budget.end(lastNewOutcome: .milliseconds(900)) == .seconds(1))
        #expect(!budget.endsAtCap(lastNewOutcome: .milliseconds(900)))
    }

    @Test("with a cap the run ends a whole budget after the last new outcome, or at the cap")
    func adaptive() {
        let budget = StressTimeBudget(budget: .seconds(1), cap: .seconds(3))
        #expect(budget.end(lastNewOutcome: .zero) == .seconds(1))
        #expect(budget.end(lastNewOutcome: .milliseconds(1_500)) == .milliseconds(2_500))
        #expect(!budget.endsAtCap(lastNewOutcome: .milliseconds(1_500)))
        #expect(budget.end(lastNewOutcome: .milliseconds(2_500)) == .seconds(3))
        #expect(budget.endsAtCap(lastNewOutcome: .milliseconds(2_500)))
    }

    @Test("a cap is an option and a knob, scaled with the budget; a bad one is an error naming it")
    func settings() throws {
        let options = try StressOptions().applyingEnvironment([StressOptions.Variable.maxSeconds: "4"])
        #expect(options.maxTimeBudget == .seconds(4))
        let scaled = try StressOptions().applyingEnvironment([
            StressOptions.Variable.maxSeconds: "4", StressOptions.Variable.scale: "2"
        ])
        #expect(scaled.maxTimeBudget == .seconds(8) && scaled.timeBudget == .seconds(2))
        for text in ["0", "-1", "4s", "nan"] {
            #expect(throws: HarnessConfigurationError.self) {
                try StressOptions().applyingEnvironment([StressOptions.Variable.maxSeconds: text])
            }
        }
        func invalidSetting(_ options: StressOptions) -> String? {
            do {
                try options.validate()
                return nil
            } catch {
                guard case .invalid(let setting, _, _) = error else { return "\(error)" }
                return setting
            }
        }
        var belowBudget = StressOptions()
        belowBudget.maxTimeBudget = .milliseconds(500)
        #expect(invalidSetting(belowBudget) == "StressOptions.maxTimeBudget")
        var withoutBudget = StressOptions(timeBudget: nil)
        withoutBudget.maxTimeBudget = .seconds(2)
        #expect(invalidSetting(withoutBudget) == "StressOptions.maxTimeBudget")
        #expect(invalidSetting(StressOptions(maxTimeBudget: .seconds(2))) == nil)
    }

    @Test("a run with a cap goes on past its budget for an outcome that came late, and stops once none is new")
    func runAdapts() async throws {
        // One runner: iteration 1 takes longer than the budget and returns a new outcome, so
        // a fixed budget ends the run before iteration 2; an adaptive one runs iteration 2,
        // which returns the third and last new outcome, then stops a budget later.
        let iterations = Atomic(0)
        let test = StressTest<Int>(outcomes: [.acceptable(meaning: "any", where: { _ in true })]) { _ in
            let index = iterations.add(1, ordering: .relaxed).oldValue
            if index == 1 { Thread.sleep(forTimeInterval: 0.6) }
            return min(index, 2)
        }
        let options = StressOptions(
            timeBudget: .milliseconds(500), maxTimeBudget: .seconds(30), threads: 1, escalation: nil)
        let report = try await Harness.runStress("late outcome", options: options, test)
        #expect(
            report.histogram.map(\.outcome).sorted { $0.returnedOutcome! < $1.returnedOutcome! }
                == [.returned(0), .returned(1), .returned(2)])
        #expect(report.stop == .timeBudget)
        #expect(report.elapsed < .seconds(30))
    }
}
