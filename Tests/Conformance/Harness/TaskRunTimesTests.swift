@testable import Harness
import Primitives
import Testing

@Suite("Harness: how long a sleeping task ran and waited since it last suspended")
struct TaskRunTimesTests {
    private let lane = SeamThreadID(rawValue: 1)
    private let otherLane = SeamThreadID(rawValue: 2)
    private let task: UInt64 = 7

    /// The task's own job begun on `lane` at 1,000, which queued the task again at 1,002
    /// when `queuesItself`.
    private func running(queuesItself: Bool = false) -> TaskRunTimes {
        var times = TaskRunTimes()
        times.jobStarted(task: task, on: lane, at: 1_000)
        if queuesItself { times.jobQueued(task: task, by: lane, current: { nil }, at: { 1_002 }) }
        return times
    }

    /// What `times` gives a sleep the task asks for on `lane` at `now`: its slack and previous job.
    private func spent(_ times: TaskRunTimes, on lane: SeamThreadID, at now: UInt64) -> SleepDeadline {
        times.sleepDeadline(in: .zero, by: task, on: lane, at: now)
    }

    /// The deadline expected of a sleep whose slack is `ran` nanoseconds, after a previous job,
    /// if `previous`.
    private func expected(ran: Int64, previous: (ran: Int64, waited: Int64)? = nil) -> SleepDeadline {
        SleepDeadline(
            remaining: .zero, slack: .nanoseconds(ran),
            previous: previous.map { .init(ran: .nanoseconds($0.ran), waited: .nanoseconds($0.waited)) })
    }

    /// What the task spent `ran` into its next job, begun on `lane` at `start` once the job
    /// `lane` ran ended.
    private func spentInNextJob(_ times: TaskRunTimes, at start: UInt64, ran: UInt64) -> SleepDeadline {
        var times = times
        times.jobEnded(on: lane)
        times.jobStarted(task: task, on: lane, at: start)
        return spent(times, on: lane, at: start + ran)
    }

    @Test("a task's own job: the time since it began, and no previous job")
    func ownJob() {
        #expect(spent(running(), on: lane, at: 1_400) == expected(ran: 400))
    }

    @Test("a task that queued itself goes on with its run: the job before, and the wait for a lane")
    func requeued() {
        var times = running(queuesItself: true)
        times.jobEnded(on: lane)
        times.jobStarted(task: 9, on: otherLane, at: 1_010)
        times.jobEnded(on: otherLane)
        times.jobStarted(task: task, on: otherLane, at: 31_002)
        #expect(
            spent(times, on: otherLane, at: 31_007)
                == expected(ran: 5, previous: (2, 30_000)))
    }

    @Test("the next job may begin on another lane before the one that queued the task returns")
    func nextJobBeganFirst() {
        var times = running(queuesItself: true)
        times.jobStarted(task: task, on: otherLane, at: 1_050)
        times.jobEnded(on: lane)
        #expect(
            spent(times, on: otherLane, at: 1_060) == expected(ran: 10, previous: (2, 48)))
    }

    @Test("a task that suspended to wait for something begins a new run")
    func suspended() {
        #expect(spentInNextJob(running(), at: 5_000, ran: 1) == expected(ran: 1))
    }

    @Test("a job queued for the task by another task, or by another lane, is not the task queuing itself")
    func queuedByOthers() {
        var times = running()
        // Task 9 resumes the task, from a job of its own and from an actor's.
        for (job, start): (UInt64, UInt64) in [(9, 1_100), (0, 1_300)] {
            times.jobStarted(task: job, on: otherLane, at: start)
            times.jobQueued(task: task, by: otherLane, current: { 9 }, at: { start + 100 })
        }
        #expect(spentInNextJob(times, at: 2_000, ran: 3) == expected(ran: 3))
    }

    @Test("a task run inside a job of no task (an actor draining its queue) that changes executor goes on")
    func inActorDrain() {
        var times = TaskRunTimes()
        times.jobStarted(task: 0, on: lane, at: 1_000)
        #expect(spent(times, on: lane, at: 1_030) == expected(ran: 30))
        times.jobQueued(task: task, by: lane, current: { nil }, at: { 1_040 })
        #expect(spentInNextJob(times, at: 9_040, ran: 1) == expected(ran: 1, previous: (40, 8_000)))
    }

    @Test("a thread that runs no job spent nothing")
    func noJob() {
        let times = TaskRunTimes()
        #expect(spent(times, on: lane, at: 5) == expected(ran: 0))
        #expect(times.sleepDeadline(in: .zero, by: nil, on: nil, at: 5) == expected(ran: 0))
    }
}
