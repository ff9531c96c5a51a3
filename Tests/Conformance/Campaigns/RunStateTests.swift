import Foundation
@testable import Harness
import Testing

@Suite("RunState: what a test run keeps, and what it says at its end")
struct RunStateTests {
    /// `HARNESS_SCHEDULES` and `HARNESS_ISOLATION` are the budget and the isolation of
    /// hand-written explorations: generated scenarios have their own budget
    /// (`HARNESS_SCENARIO_SCHEDULES`) and always run in the test's process, so they do not read
    /// them; a run whose campaigns read neither names them when it ends instead of ignoring
    /// them in silence.
    @Test("a knob set for front doors that did not run is named at the run's end, with those that read it")
    func unreadKnobs() {
        let run = RunState()
        let environment = EnvironmentSnapshot([
            Knob.schedules.name: "9", Knob.isolation.name: "process", Knob.scenarios.name: "2", Knob.seed.name: ""
        ])
        run.begin(.generated, environment: environment)
        #expect(run.unreadKnobs == [.schedules, .isolation])
        #expect(
            CampaignText.unread(run.unreadKnobs) == """
                note: this run set variables that none of its campaigns read:
                  HARNESS_SCHEDULES (read by explore)
                  HARNESS_ISOLATION (read by explore)
                """)
        run.begin(.explore, environment: environment)
        #expect(run.unreadKnobs.isEmpty)
    }

    @Test("an isolated child and an exit test keep nothing: their parents sum up the run")
    func childrenKeepNothing() {
        for variables in [[Knob.ChildProcess.scenario: "s"], [EnvironmentSnapshot.exitTest: "3"]] {
            let run = RunState()
            let environment = EnvironmentSnapshot(variables.merging([Knob.schedules.name: "9"]) { $1 })
            #expect(!environment.sumsUpRun)
            run.begin(.generated, environment: environment)
            run.add(CampaignEntry(scenario: "s", strategy: .random, seed: 1, reports: [], elapsed: .zero))
            #expect(run.entries.isEmpty && run.unreadKnobs.isEmpty)
        }
    }

    @Test("the summary table keeps a generated test's whole name, note included, its columns aligned")
    func longNames() {
        let long = "stale cache set (2 generated, sequences still new: raise HARNESS_SCENARIOS)"
        let entries = [long, "short"].map {
            CampaignEntry(scenario: $0, strategy: .random, seed: 1, reports: [], elapsed: .zero)
        }
        let lines = CampaignSummary.table(entries).split(separator: "\n").dropFirst()
        #expect(lines.contains { $0.hasPrefix(long + "  random") })
        let strategyColumns = lines.dropFirst().map { line in
            line.firstRange(of: "random").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        }
        #expect(strategyColumns.count == 2 && Set(strategyColumns).count == 1, "strategy columns: \(strategyColumns)")
        #expect([0.27, 5.3, 245.7].map(CampaignSummary.rate) == ["0.27", "5.3", "245"])
    }

    @Test("the snapshot keeps the harness's variables and CI, and drops empty knobs")
    func snapshot() {
        let snapshot = EnvironmentSnapshot(["HARNESS_SEED": "", "HARNESS_SCHEDULES": "3", "CI": "", "PATH": "/bin"])
        #expect(snapshot.variables == ["HARNESS_SCHEDULES": "3", "CI": ""])
        #expect(snapshot[.schedules] == "3" && snapshot[.seed] == nil && snapshot.sumsUpRun)
    }

    @Test("the snapshot of the process's environment is read from the environment as it is now")
    func currentSnapshot() async {
        // In a process of its own: the variables set here would reach every campaign running
        // beside it.
        await #expect(processExitsWith: .success) {
            setenv("HARNESS_SCHEDULES", "7", 1)
            setenv("HARNESS_SEED", "", 1)
            setenv("HARNESS_CHILD_CASE", "", 1)
            setenv("CI", "", 1)
            setenv("HARNESS", "not a knob", 1)
            setenv("NOT_HARNESS_SCHEDULES", "8", 1)
            let snapshot = EnvironmentSnapshot.current()
            let kept = [
                "HARNESS_SCHEDULES", "HARNESS_SEED", "HARNESS_CHILD_CASE", "CI", "HARNESS", "NOT_HARNESS_SCHEDULES"
            ]
            .map { snapshot.variables[$0] }
            guard kept == ["7", nil, "", "", nil, nil], snapshot[.schedules] == "7" else { exit(1) }
        }
    }
}
