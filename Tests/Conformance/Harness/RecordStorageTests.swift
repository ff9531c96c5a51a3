@testable import Harness
import Testing

@Suite("Harness: the storage an execution hands its steps, decisions, task names and job points on in")
struct RecordStorageTests {
    @Test("an execution takes the arrays given back the time before last, in place when unheld")
    func recordStorageIsHandedOn() {
        let storage = RecordStorage()
        func given(_ count: Int) -> RecordStorage.Arrays {
            var trace = CompactTrace(capacity: count)
            for _ in 0..<count {
                trace.append(
                    thread: 0, kind: .yield, target: nil, choice: nil, location: nil, task: nil, isBookkeeping: false,
                    call: nil)
            }
            let jobRun = TaskJobRun(step: 0, task: 1, points: TaskJobPoints(resumed: 1, suspended: nil))
            return RecordStorage.Arrays(
                steps: trace.steps, decisions: Array(repeating: .job(0), count: count),
                taskNames: Array(repeating: nil, count: count), jobPoints: Array(repeating: jobRun, count: count))
        }
        func isEmpty(_ arrays: RecordStorage.Arrays) -> Bool {
            arrays.steps.isEmpty && arrays.decisions.isEmpty && arrays.taskNames.isEmpty && arrays.jobPoints.isEmpty
        }
        func addresses(_ arrays: RecordStorage.Arrays) -> [UnsafeRawPointer?] {
            [
                arrays.steps.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                arrays.decisions.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                arrays.taskNames.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                arrays.jobPoints.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            ]
        }
        #expect(storage.take().steps.capacity == 0)
        var first = given(100)
        let firstStorage = addresses(first)
        storage.giveBack(first)
        storage.giveBack(given(1))
        // Still held here: the execution gets arrays of its own, as large.
        let shared = storage.take()
        #expect(isEmpty(shared))
        #expect(shared.steps.capacity >= 100 && shared.decisions.capacity >= 100)
        #expect(shared.taskNames.capacity >= 100 && shared.jobPoints.capacity >= 100)
        #expect(zip(addresses(shared), firstStorage).allSatisfy { $0 != $1 })
        #expect(first.steps.count == 100 && first.taskNames.count == 100 && first.jobPoints.count == 100)
        // Given back twice more, and no longer held: the first arrays' storage, emptied.
        storage.giveBack(first)
        storage.giveBack(given(1))
        first = RecordStorage.Arrays()
        let reused = storage.take()
        #expect(isEmpty(reused))
        #expect(addresses(reused) == firstStorage)
        #expect(storage.take().steps.capacity == 0)
    }
}
