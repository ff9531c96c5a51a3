@testable import Harness
import Testing

@Suite("Harness: the storage an execution hands its steps and decisions on in")
struct RecordStorageTests {
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
