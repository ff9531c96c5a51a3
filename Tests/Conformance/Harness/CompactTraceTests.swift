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
}
