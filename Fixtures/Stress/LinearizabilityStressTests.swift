import Harness
import Primitives

/// Linearizability under stress: histories recorded on real threads and checked at the end
/// of each iteration, so a non-linearizable history is a failed check, a forbidden outcome.
public enum LinearizabilityStressTests {
    /// A queue kept in an ``AtomicBox``: enqueue appends in one update, dequeue removes the
    /// front in one update.
    struct BoxedQueue: Sendable {
        let box = AtomicBox<[Int]>([])

        func enqueue(_ value: Int) -> QueueResult<Int> {
            box.update { $0.append(value) }
            return .enqueued
        }

        func dequeue() -> QueueResult<Int> {
            box.update { $0.isEmpty ? .empty : .dequeued($0.removeFirst()) }
        }
    }

    /// Two threads each enqueue a value of their own and dequeue twice, on a queue that holds
    /// one value to begin with: the history must be linearizable as a queue.
    public static let boxedQueue = StressTest { scenario in
        let recorder = HistoryRecorder<QueueOperation<Int>, QueueResult<Int>>()
        let queue = BoxedQueue()
        recorder.record(.enqueue(0), client: 0) { queue.enqueue(0) }
        for client in 1...2 {
            scenario.spawn {
                recorder.record(.enqueue(client), client: client) { queue.enqueue(client) }
                for _ in 0..<2 {
                    recorder.record(.dequeue, client: client) { queue.dequeue() }
                }
            }
        }
        scenario.joinAll()
        let verdict = LinearizabilityChecker.check(recorder.history, model: QueueModel<Int>())
        Harness.check(verdict.isLinearizable, "\(verdict)")
    }
}
