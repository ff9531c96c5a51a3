@testable import Harness
import Primitives
import Testing

@Suite("Harness: how long a sleeping task ran and waited since it last suspended")
struct TaskRunTimesTests {
    private let lane = SeamThreadID(rawValue: 1)
    private let otherLane = SeamThreadID(rawValue: 2)
    private let task: UInt64 = 7

    @Test("a task's own job: the time since it began, and no previous job")
    func ownJob() {
        var times = TaskRunTimes()
        times.jobStarted(task: task, on: lane, at: 1_000)
        #expect(times.spent(by: task, on: lane, at: 1_400) == .init(ran: 400, previous: nil))
    }

    @Test("a task that queued itself goes on with its run: the job before, and the wait for a lane")
    func requeued() {
        var times = TaskRunTimes()
        times.jobStarted(task: task, on: lane, at: 1_000)
        times.jobQueued(task: task, by: lane, current: { nil }, at: { 1_002 })
        times.jobEnded(on: lane)
        times.jobStarted(task: 9, on: otherLane, at: 1_010)
        times.jobEnded(on: otherLane)
        times.jobStarted(task: task, on: otherLane, at: 31_002)
        #expect(
            times.spent(by: task, on: otherLane, at: 31_007)
                == .init(ran: 5, previous: .init(ran: 2, waited: 30_000)))
    }

    @Test("the next job may begin on another lane before the one that queued the task returns")
    func nextJobBeganFirst() {
        var times = TaskRunTimes()
        times.jobStarted(task: task, on: lane, at: 1_000)
        times.jobQueued(task: task, by: lane, current: { nil }, at: { 1_002 })
        times.jobStarted(task: task, on: otherLane, at: 1_050)
        times.jobEnded(on: lane)
        #expect(
            times.spent(by: task, on: otherLane, at: 1_060) == .init(ran: 10, previous: .init(ran: 2, waited: 48)))
    }

    @Test("a task that suspended to wait for something begins a new run")
    func suspended() {
        var times = TaskRunTimes()
        times.jobStarted(task: task, on: lane, at: 1_000)
        times.jobEnded(on: lane)
        times.jobStarted(task: task, on: lane, at: 5_000)
        #expect(times.spent(by: task, on: lane, at: 5_001) == .init(ran: 1, previous: nil))
    }

    @Test("a job queued for the task by another task, or by another lane, is not the task queuing itself")
    func queuedByOthers() {
        var times = TaskRunTimes()
        times.jobStarted(task: task, on: lane, at: 1_000)
        times.jobStarted(task: 9, on: otherLane, at: 1_100)
        times.jobQueued(task: task, by: otherLane, current: { 9 }, at: { 1_200 })
        times.jobStarted(task: 0, on: otherLane, at: 1_300)
        times.jobQueued(task: task, by: otherLane, current: { 9 }, at: { 1_400 })
        times.jobEnded(on: lane)
        times.jobStarted(task: task, on: lane, at: 2_000)
        #expect(times.spent(by: task, on: lane, at: 2_003) == .init(ran: 3, previous: nil))
    }

    @Test("a task run inside a job of no task (an actor draining its queue) that changes executor goes on")
    func inActorDrain() {
        var times = TaskRunTimes()
        times.jobStarted(task: 0, on: lane, at: 1_000)
        #expect(times.spent(by: task, on: lane, at: 1_030) == .init(ran: 30, previous: nil))
        times.jobQueued(task: task, by: lane, current: { nil }, at: { 1_040 })
        times.jobEnded(on: lane)
        times.jobStarted(task: task, on: lane, at: 9_040)
        #expect(times.spent(by: task, on: lane, at: 9_041) == .init(ran: 1, previous: .init(ran: 40, waited: 8_000)))
    }

    @Test("a thread that runs no job spent nothing")
    func noJob() {
        let times = TaskRunTimes()
        #expect(times.spent(by: task, on: lane, at: 5) == .init(ran: 0, previous: nil))
        #expect(times.spent(by: nil, on: nil, at: 5) == .init(ran: 0, previous: nil))
    }
}
