@testable import Harness
import CShim
import Testing

/// How an exploration shows it is alive to an isolated child's heartbeat: steps, and the CPU
/// time of work that takes none, such as building a failure's report.
@Suite("Harness: signs of life of an exploration")
struct ActivityCounterTests {
    /// Computes on the calling thread until it has used `milliseconds` more of CPU time.
    static func compute(milliseconds: Int64) {
        let thread = cshim_current_thread_system_id()
        guard let start = ThreadActivity.read(systemID: thread)?.cpuTime else { return }
        var sum = 0
        while (ThreadActivity.read(systemID: thread)?.cpuTime ?? start) - start < .milliseconds(milliseconds) {
            for value in 0..<10_000 { sum &+= value }
        }
        withExtendedLifetime(sum) {}
    }

    @Test("a step is a sign of life")
    func step() {
        let activity = ActivityCounter()
        let before = activity.signsOfLife
        activity.noteStep()
        #expect(activity.signsOfLife != before)
    }

    @Test("computing without steps is a sign of life only inside whileComputing")
    func computing() {
        let activity = ActivityCounter()
        let idle = activity.signsOfLife
        Self.compute(milliseconds: 20)
        #expect(activity.signsOfLife == idle)
        activity.whileComputing {
            let before = activity.signsOfLife
            Self.compute(milliseconds: 20)
            #expect(activity.signsOfLife != before)
        }
    }
}
