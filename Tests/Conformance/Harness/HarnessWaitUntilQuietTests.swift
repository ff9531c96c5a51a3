import Harness
import Primitives
import Testing

/// `Harness.waitUntilQuiet()`: a task waits until every other task of the execution is done.
@Suite("Harness: waiting until the other tasks are quiet")
struct HarnessWaitUntilQuietTests {
    @Test("a task that waits sees what every other task did, sleeps on virtual time included")
    func waitsForTheOthers() throws {
        let options = ExplorationOptions(schedules: 200, seed: 1, keepsFailures: false)
        let report = try Harness.run("wait until quiet", options: options) { scenario in
            let log = EventLog()
            scenario.task {
                try await Task.sleep(for: .seconds(5))
                await log.append("slept")
            }
            scenario.task { await log.append("at once") }
            scenario.task {
                await Harness.waitUntilQuiet()
                let events = await log.events
                Harness.check(events.count == 2, "the waiter saw \(events)")
            }
            scenario.joinAll()
        }
        #expect(report.failure == nil, "\(String(describing: report.failure?.reason))")
        #expect(report.schedulesRun == 200)
    }

    @Test("outside an execution it returns at once")
    func outsideAnExecution() async {
        await Harness.waitUntilQuiet()
    }
}
