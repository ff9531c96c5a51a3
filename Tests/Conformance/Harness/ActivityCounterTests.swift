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

    @Test("a step of any worker is a sign of life of the exploration, counted on that worker's counter only")
    func step() {
        let activity = ExplorationActivity()
        for worker in 0..<3 {
            let before = activity.signsOfLife
            let counters = (0..<3).map { activity.counter(forWorker: $0).steps }
            activity.counter(forWorker: worker).noteStep()
            #expect(activity.signsOfLife != before)
            #expect(
                (0..<3).map { activity.counter(forWorker: $0).steps - counters[$0] }
                    == (0..<3).map { $0 == worker ? 1 : 0 })
        }
        #expect(activity.counter(forWorker: 0) !== activity.counter(forWorker: 1))
    }

    @Test("computing without steps is a sign of life only inside whileComputing")
    func computing() {
        let activity = ExplorationActivity()
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
