import Foundation
@testable import Harness
import Synchronization
import Testing

/// How long a stuck execution waits for a job from outside the harness: the decision
/// (``ForeignWakeup``) from what its tasks wait on, and the wait it makes. No test waits on
/// time: a wait that should not happen is given an hour, and a job that should be waited
/// for arrives when the test opens its gate.
@Suite("Harness: waiting for jobs from outside")
struct ForeignJobsTests {
    static let held: Set<UInt> = [0x1000, 0x2000]
    static let job = ForeignJob(thread: "late", isMainThread: false, taskRuntimeID: 7)

    @Test("tasks that wait for each other cannot be woken from outside")
    func waitForEachOther() {
        #expect(ForeignWakeup(waits: [.task(0x1000), .task(0x2000)], held: Self.held) == .impossible)
    }

    @Test(
        "a continuation, a task group, a task the execution does not hold, or an unread wait may be woken from outside",
        arguments: [RuntimeTask.Wait.continuation, .taskGroup, .task(0x3000), .unknown]
    )
    func mayBeWoken(wait: RuntimeTask.Wait) {
        #expect(ForeignWakeup(waits: [.task(0x1000), wait], held: Self.held) == .possible)
    }

    @Test("a task running or queued outside the execution is on its way")
    func underway() {
        #expect(ForeignWakeup(waits: [.task(0x1000), .continuation, .underway], held: Self.held) == .underway)
    }

    /// Counted, not timed: each tick of a wait asks again, so a wait of the 5 ms grace asks
    /// five times more. (A time limit on an hour's grace fired on a loaded machine before
    /// the test's thread ran at all.)
    @Test("when nothing outside can wake the tasks, no grace is waited")
    func impossibleWaitsNot() {
        let jobs = ForeignJobs()
        var asked = 0
        let arrived = jobs.awaitOne(grace: .milliseconds(5), cap: .milliseconds(5)) {
            asked += 1
            return .impossible
        }
        #expect(!arrived)
        #expect(asked == 1, "the wait slept \(asked - 1) ticks")
    }

    @Test("a job that arrives late, while its task is underway, is still taken, past the grace")
    func lateJobTaken() {
        let jobs = ForeignJobs()
        let gate = DispatchSemaphore(value: 0)
        let opened = Atomic<Bool>(false)
        Thread.detachNewThread {
            gate.wait()
            jobs.note(Self.job)
        }
        let arrived = jobs.awaitOne(grace: .zero, cap: .seconds(3_600)) {
            if !opened.exchange(true, ordering: .relaxed) { gate.signal() }
            return .underway
        }
        #expect(arrived)
        #expect(jobs.first?.thread == "late")
    }

    @Test("with nothing underway, the grace ends the wait")
    func graceEnds() {
        #expect(!ForeignJobs().awaitOne(grace: .zero, cap: .seconds(3_600)) { .possible })
    }

    @Test("a job that arrived before the wait is taken even when nothing outside could send another")
    func arrivedBefore() {
        let jobs = ForeignJobs()
        jobs.note(Self.job)
        #expect(jobs.awaitOne(grace: .zero, cap: .zero) { .impossible })
    }
}
