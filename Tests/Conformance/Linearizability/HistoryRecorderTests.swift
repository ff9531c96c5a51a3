import Dispatch
import Foundation
import Harness
import Testing

/// A queue behind a pthread mutex (`NSLock`): one ThreadSanitizer sees, where a contended
/// `Synchronization.Mutex` hands over in ways it does not and reports false races.
private final class LockedQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []

    func enqueue(_ value: Int) {
        lock.withLock { items.append(value) }
    }

    func dequeue() -> Int? {
        lock.withLock { items.isEmpty ? nil : items.removeFirst() }
    }
}

@Suite("Linearizability: recording histories")
struct HistoryRecorderTests {
    @Test("threads recording around a locked queue give a history the fast check accepts")
    func threadsRecord() throws {
        let recorder = HistoryRecorder<QueueOperation<Int>, QueueResult<Int>>()
        let queue = LockedQueue()
        let clients = 4
        let callsPerClient = 500
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            for index in 0..<callsPerClient {
                if index.isMultiple(of: 2) {
                    let value = client * callsPerClient + index
                    recorder.record(.enqueue(value), client: client) {
                        queue.enqueue(value)
                        return .enqueued
                    }
                } else {
                    recorder.record(.dequeue, client: client) {
                        queue.dequeue().map(QueueResult.dequeued) ?? .empty
                    }
                }
            }
        }
        let history = recorder.history
        #expect(history.entries.count == clients * callsPerClient)
        let positions = history.entries.flatMap { [$0.invocation, $0.response!] }
        #expect(Set(positions).count == positions.count)
        #expect(history.nextPosition == positions.count)
        let verdict = LinearizabilityChecker.check(history, model: QueueModel<Int>())
        #expect(verdict.method == .uniqueValueQueue)
        #expect(verdict.isLinearizable)
    }

    @Test("a call still running when the history is read is pending")
    func pendingWhileRunning() {
        let recorder = HistoryRecorder<QueueOperation<Int>, QueueResult<Int>>()
        let entry = recorder.invoke(.dequeue, client: 3)
        #expect(recorder.history.entries[entry].isPending)
        #expect(recorder.history.entries[entry].description == "dequeue() (client 3, from 0, pending)")
        recorder.respond(entry, with: .empty)
        #expect(recorder.history.entries[entry].description == "dequeue() → empty (client 3, 0–1)")
    }

    @Test("tasks record around suspending calls")
    func tasksRecord() async {
        actor Register {
            var value = 0
            func write(_ newValue: Int) { value = newValue }
        }
        let recorder = HistoryRecorder<RegisterModel.Operation, RegisterModel.Result>()
        let register = Register()
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<3 {
                group.addTask {
                    await recorder.record(.write(client + 1), client: client) {
                        await register.write(client + 1)
                        return .written
                    }
                    await recorder.record(.read, client: client) {
                        .value(await register.value)
                    }
                }
            }
        }
        #expect(recorder.history.entries.count == 6)
        #expect(LinearizabilityChecker.check(recorder.history, model: RegisterModel()).isLinearizable)
    }
}
