import CShim
@testable import Harness
import Testing

/// The stall check driven by made-up readings of the clock and of the running thread's OS
/// thread: no thread, no waiting, no wall time.
@Suite("Harness: telling a stalled thread from a starved one")
struct StallWatchTests {
    /// Checks every quarter second from 0 to `seconds` (the first check starts the count) with
    /// `thread`'s reading at each time, and returns the verdicts after the first.
    private static func verdicts(
        timeout: Duration = .seconds(20),
        for seconds: Double,
        steps: (Double) -> Int = { _ in 0 },
        _ thread: (Double) -> ThreadActivity?
    ) -> [StallWatch.Verdict] {
        var watch = StallWatch(timeout: timeout)
        return (0...Int(seconds * 4)).map { quarter in
            let now = Double(quarter) / 4
            let time = Duration.milliseconds(Int64(now * 1_000))
            return watch.check(steps: steps(now), thread: 1, activity: thread(now), now: time)
        }.dropFirst().map { $0 }
    }

    private static func waiting(cpu: Double = 1) -> ThreadActivity {
        ThreadActivity(isRunnable: false, cpuTime: .milliseconds(Int64(cpu * 1_000)))
    }

    private static func runnable(cpu: Double) -> ThreadActivity {
        ThreadActivity(isRunnable: true, cpuTime: .milliseconds(Int64(cpu * 1_000)))
    }

    @Test("a runnable thread given no CPU is never stalled, however long it waits for one")
    func starvedIsNotStalled() {
        let verdicts = Self.verdicts(for: 600) { _ in Self.runnable(cpu: 1) }
        #expect(verdicts.allSatisfy { $0 == .runnable })
    }

    @Test("a thread that waits and uses no CPU stalls, blocked, once the timeout has passed")
    func blockedStalls() {
        let verdicts = Self.verdicts(for: 20) { _ in Self.waiting() }
        #expect(verdicts.dropLast().allSatisfy { $0 == .waiting })
        #expect(verdicts.last == .stalled(.blocked(seconds: 20)))
    }

    @Test("a thread spinning on a starved CPU stalls, busy, once it has used the timeout's CPU time, not before")
    func busyCountsCPUTime() {
        // A tenth of a CPU: 20 s of CPU time take 200 s.
        let verdicts = Self.verdicts(for: 200) { now in Self.runnable(cpu: 1 + now / 10) }
        #expect(verdicts.dropLast().allSatisfy { $0 == .runnable })
        #expect(verdicts.last == .stalled(.busy(seconds: 20)))
    }

    @Test("time runnable without a CPU does not count towards a blocked thread's timeout")
    func starvationPausesTheCount() {
        // Blocked for 10 s, starved for 100 s, blocked again: stalled 10 s into the second wait.
        let verdicts = Self.verdicts(for: 120) { now in
            (10..<110).contains(now) ? Self.runnable(cpu: 1) : Self.waiting()
        }
        #expect(verdicts.firstIndex { $0 != .waiting && $0 != .runnable } == 119 * 4 + 3)
        #expect(verdicts.last == .stalled(.blocked(seconds: 20)))
    }

    @Test("a step starts the count again")
    func stepResets() {
        let verdicts = Self.verdicts(for: 30, steps: { $0 < 15 ? 0 : 1 }) { _ in Self.waiting() }
        #expect(verdicts.contains(.progressed))
        #expect(!verdicts.contains { if case .stalled = $0 { true } else { false } })
    }

    @Test("where the thread cannot be read, wall time counts, as before")
    func unreadableCountsWallTime() {
        let verdicts = Self.verdicts(for: 20) { _ in nil }
        #expect(verdicts.last == .stalled(.blocked(seconds: 20)))
        #expect(verdicts.dropLast().allSatisfy { $0 == .waiting })
    }

    @Test("the running OS thread reads as runnable, with CPU time that grows as it computes")
    func readsTheCallingThread() throws {
        let before = try #require(ThreadActivity.read(systemID: cshim_current_thread_system_id()))
        var sum = 0
        for index in 0..<50_000_000 { sum &+= index }
        let after = try #require(ThreadActivity.read(systemID: cshim_current_thread_system_id()))
        #expect(sum != 0)
        #expect(before.isRunnable && after.isRunnable)
        #expect(after.cpuTime > before.cpuTime)
        #expect(ThreadActivity.read(systemID: UInt64(Int32.max)) == nil)
    }
}
