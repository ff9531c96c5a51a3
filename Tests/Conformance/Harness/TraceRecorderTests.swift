@testable import Harness
import Primitives
import Testing

@Suite("Harness: the trace recorder")
struct TraceRecorderTests {
    @Test("a trace restarted in place after an execution is, field by field, a new one")
    func restartedInPlace() throws {
        let limits = Execution.Limits()
        let record = try ScheduleRecord(stepCapacity: Execution.stepByteCapacity(limits), sharedFile: nil)
        let activity = ActivityCounter()
        var nothingLeft = TraceRecorder.Leftovers()
        var trace = TraceRecorder(
            record: record, activity: activity, storage: RecordStorage.Arrays(), reusing: &nothingLeft)
        // Lane 1 finishes a job of a named task and takes the next; lane 2 finishes one and the
        // execution ends before it takes another; T0 is inside a queue's `sync`.
        trace.nameTask(runtimeID: 41, .given("worker"))
        trace.noteFinishedJob(lane: 1, ran: [(runtimeID: UInt64(41), points: TaskJobPoints(resumed: 1, suspended: 2))])
        _ = trace.append(Self.step(of: 1, .takeJob, job: JobIdentity(task: 0, enqueueOrder: 0)))
        trace.noteFinishedJob(
            lane: 2, ran: [(runtimeID: UInt64(42), points: TaskJobPoints(resumed: 3, suspended: nil))])
        trace.beginCall(DropInCall(SeamCall(.queue, .sync), object: SharedObject(.queue, 1)), by: 0)
        _ = trace.append(Self.step(of: 0, .lock))
        #expect(trace.steps.count == 2 && !trace.taskNames.isEmpty && !trace.jobPoints.isEmpty)

        var storage = trace.steps.steps
        storage.removeAll(keepingCapacity: true)
        trace.restart(storage: RecordStorage.Arrays(steps: storage))
        var noneLeft = TraceRecorder.Leftovers()
        let new = TraceRecorder(record: record, activity: activity, storage: RecordStorage.Arrays(), reusing: &noneLeft)
        expectSameStoredProperties(trace, as: new)
    }

    /// A step of `thread`, a lane's when it runs `job`.
    private static func step(of thread: Int, _ kind: OperationKind, job: JobIdentity? = nil) -> ExecutionModel.Step {
        ExecutionModel.Step(
            thread: thread, kind: kind, isOnExecutorThread: job != nil, followsFailure: false, target: nil, choice: nil,
            location: nil, job: job)
    }
}
