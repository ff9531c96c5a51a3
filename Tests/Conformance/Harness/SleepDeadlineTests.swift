@testable import Harness
import Primitives
import Testing

@Suite("Harness: a system-clock sleep's duration, recovered from its deadline")
struct SleepDeadlineTests {
    private static func delay(remaining: Double, slack: Double) -> Duration {
        SleepDeadline(remaining: .microseconds(remaining * 1000), slack: .microseconds(slack * 1000)).delay
    }

    @Test("a job that arrives microseconds after its sleep began waits the whole milliseconds it asked for")
    func prompt() {
        #expect(Self.delay(remaining: 299.9987, slack: 0.005) == .milliseconds(300))
        #expect(Self.delay(remaining: 298.9991, slack: 0.004) == .milliseconds(299))
        #expect(Self.delay(remaining: 0.05, slack: 0.01) == .milliseconds(1))
    }

    @Test("a job held up for milliseconds after its sleep began waits the roundest duration it may have asked for")
    func heldUp() {
        #expect(Self.delay(remaining: 298.4, slack: 1.7) == .milliseconds(300))
        #expect(Self.delay(remaining: 4.2, slack: 1) == .milliseconds(5))
        #expect(Self.delay(remaining: 1234.6, slack: 600) == .milliseconds(1500))
        #expect(Self.delay(remaining: 59_990, slack: 15) == .seconds(60))
        // Equally round: the least, as if the job had come at once.
        #expect(Self.delay(remaining: 296.2, slack: 2.7) == .milliseconds(297))
    }

    @Test("a job that ran long before its sleep lengthens it by a quarter of the time left at most")
    func ranLong() {
        #expect(Self.delay(remaining: 299.99, slack: 250) == .milliseconds(300))
        #expect(Self.delay(remaining: 29.99, slack: 25) == .milliseconds(30))
        #expect(Self.delay(remaining: 1.2, slack: 4) == .milliseconds(2))
        #expect(Self.delay(remaining: 372, slack: 500) == .milliseconds(400))
    }

    /// The duration recovered for a sleep whose task ran `previousRan` ms in its previous
    /// job, then waited `waited` ms for a lane, before the job that slept, which ran
    /// `slack` ms.
    private static func delay(remaining: Double, slack: Double, previousRan: Double, waited: Double) -> Duration {
        func duration(_ milliseconds: Double) -> Duration { .microseconds(milliseconds * 1000) }
        return SleepDeadline(
            remaining: duration(remaining), slack: duration(slack),
            previous: .init(ran: duration(previousRan), waited: duration(waited))
        ).delay
    }

    @Test("a task that changed executor after reading the clock has the time it waited for a lane added back")
    func readBeforeChangingExecutor() {
        // 100 ms asked for, read 2 µs before the task queued itself; it waited 30 ms for a
        // lane, as other jobs ran, and its next job slept 5 µs in.
        #expect(Self.delay(remaining: 69.993, slack: 0.005, previousRan: 0.002, waited: 30) == .milliseconds(100))
        #expect(Self.delay(remaining: 99.983, slack: 0.005, previousRan: 0.002, waited: 0.01) == .milliseconds(100))
        // Not round: the previous job's range is still the one a read there falls in.
        #expect(Self.delay(remaining: 291.993, slack: 0.005, previousRan: 0.002, waited: 7) == .milliseconds(299))
        // A deadline the real clock passed while the task waited.
        #expect(Self.delay(remaining: -3.007, slack: 0.005, previousRan: 0.002, waited: 4) == .milliseconds(1))
    }

    @Test("a task that read the clock after queuing itself (a yield) keeps the duration its own job reads")
    func readAfterYielding() {
        #expect(Self.delay(remaining: 99.999, slack: 0.005, previousRan: 0.002, waited: 30) == .milliseconds(100))
        #expect(Self.delay(remaining: 120.0, slack: 0.004, previousRan: 0.003, waited: 35) == .milliseconds(120))
        #expect(Self.delay(remaining: -0.001, slack: 0.002, previousRan: 0.002, waited: 3) == .zero)
    }

    @Test("no whole millisecond in reach: the time left, rounded up")
    func noWholeMillisecond() {
        #expect(Self.delay(remaining: 298.4, slack: 0.1) == .milliseconds(299))
        #expect(Self.delay(remaining: 1.5, slack: 0) == .milliseconds(2))
    }

    @Test("a deadline that has passed waits nothing, and one beyond whole milliseconds waits what is left")
    func extremes() {
        #expect(Self.delay(remaining: -2, slack: 1) == .zero)
        #expect(Self.delay(remaining: -0.5, slack: 3) == .zero)
        let far = Duration.seconds(Int64.max / 100)
        #expect(SleepDeadline(remaining: far, slack: .seconds(1)).delay == far)
    }

    @Test("a task held up between reading the clock and sleeping until that reading plus 300 ms sleeps 300 virtual ms")
    func sleepUntilAfterHoldUp() throws {
        let report = try Harness.run("held-up sleeper", options: ExplorationOptions(schedules: 5, seed: 1)) {
            scenario in
            let slept = AtomicBox<Duration>(.zero)
            scenario.task {
                let start = Seam.now()
                let deadline = ContinuousClock.now + .milliseconds(300)
                // As the OS holds up a thread it preempts: the job reaches the executor 3 ms late.
                let heldUntil = ContinuousClock.now + .milliseconds(3)
                while ContinuousClock.now < heldUntil {}
                try await Task.sleep(until: deadline, clock: .continuous)
                slept.store(start.duration(to: Seam.now()))
            }
            scenario.joinAll()
            Harness.check(slept.load() == .milliseconds(300), "the task slept \(slept.load()) of virtual time")
        }
        #expect(report.failure == nil, "\(report.failure.map { "\($0.reason)" } ?? "")")
        #expect(report.schedulesRun == 5)
    }
}
