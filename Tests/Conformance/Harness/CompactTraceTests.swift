@testable import Harness
import Primitives
import Testing

@Suite("Harness: the trace of fixed-size records")
struct CompactTraceTests {
    @Test("steps come back named as they were appended, a literal location and one given as text alike")
    func namingRoundTrip() {
        let call = DropInCall(SeamCall(.semaphore, .wait), object: SharedObject(.semaphore, 1))
        let steps = [
            TraceStep(
                thread: 1, kind: .lock, target: .object(SharedObject(.mutex, 2)),
                location: SeamLocation(fileID: "Module/File.swift", line: 12), task: 3, isBookkeeping: true,
                call: call),
            TraceStep(thread: nil, kind: .advanceClock, target: .clockAdvance(nanoseconds: 5), location: nil),
            TraceStep(
                thread: 0, kind: .chooseJob, target: .queuedJob(position: 2, count: 3), choice: 1,
                location: SeamLocation(fileIDText: "Other/Read.swift", line: 7))
        ]
        var trace = CompactTrace(capacity: 1)
        for step in steps {
            trace.append(
                thread: step.thread, kind: step.kind, target: step.target, choice: step.choice,
                location: step.location, task: step.task, isBookkeeping: step.isBookkeeping, call: step.call)
        }
        #expect(trace.count == steps.count)
        #expect(trace.named == steps)
        #expect(trace[2].location?.fileID == "Other/Read.swift")
        trace.setCall(call.ended(.timedOut), ofStep: 0)
        #expect(trace[0].call?.timedOut == true)
        #expect(trace[0].location == steps[0].location && trace[1] == steps[1])
    }

    @Test("an execution takes the steps and decisions given back the time before last, in place when unheld")
    func recordStorageIsHandedOn() {
        let storage = RecordStorage()
        func given(_ count: Int) -> (steps: [CompactTrace.Step], decisions: [ScheduleDecision]) {
            var trace = CompactTrace(capacity: count)
            for _ in 0..<count {
                trace.append(
                    thread: 0, kind: .yield, target: nil, choice: nil, location: nil, task: nil, isBookkeeping: false,
                    call: nil)
            }
            return (trace.steps, Array(repeating: .job(0), count: count))
        }
        #expect(storage.take().steps.capacity == 0)
        var first = given(100)
        let firstStorage = first.steps.withUnsafeBufferPointer { $0.baseAddress }
        storage.giveBack(steps: first.steps, decisions: first.decisions)
        storage.giveBack(steps: given(1).steps, decisions: given(1).decisions)
        // Still held here: the execution gets arrays of its own, as large.
        let shared = storage.take()
        #expect(shared.steps.isEmpty && shared.decisions.isEmpty)
        #expect(shared.steps.capacity >= 100 && shared.decisions.capacity >= 100)
        #expect(shared.steps.withUnsafeBufferPointer { $0.baseAddress } != firstStorage)
        #expect(first.steps.count == 100)
        // Given back twice more, and no longer held: the first arrays' storage, emptied.
        storage.giveBack(steps: first.steps, decisions: first.decisions)
        storage.giveBack(steps: given(1).steps, decisions: given(1).decisions)
        first = ([], [])
        let reused = storage.take()
        #expect(reused.steps.isEmpty && reused.decisions.isEmpty)
        #expect(reused.steps.withUnsafeBufferPointer { $0.baseAddress } == firstStorage)
        #expect(storage.take().steps.capacity == 0)
    }
}
