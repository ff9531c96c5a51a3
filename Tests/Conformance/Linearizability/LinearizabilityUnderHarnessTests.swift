import Harness
import Primitives
import Testing

/// The recorder on controlled threads: every execution's history is checked at its end, so
/// the harness reports a linearizability violation like any broken invariant, with its
/// schedule and replay token.
@Suite("Linearizability: histories recorded under the harness")
struct LinearizabilityUnderHarnessTests {
    /// Two threads dequeue from a queue holding 1 and 2. With `atomicDequeue` false, a dequeue
    /// reads the front and removes it under two separate locks, so both can return 1.
    static func dequeuers(atomicDequeue: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let recorder = HistoryRecorder<QueueOperation<Int>, QueueResult<Int>>()
            let mutex = SeamMutex()
            let queue = UncheckedBox<[Int]>([])
            for value in [1, 2] {
                recorder.record(.enqueue(value), client: 0) {
                    mutex.withLock { queue.value.append(value) }
                    return .enqueued
                }
            }
            for client in 1...2 {
                scenario.spawn {
                    recorder.record(.dequeue, client: client) {
                        if atomicDequeue {
                            return mutex.withLock {
                                queue.value.isEmpty ? .empty : .dequeued(queue.value.removeFirst())
                            }
                        }
                        guard let front = mutex.withLock({ queue.value.first }) else { return .empty }
                        mutex.withLock { _ = queue.value.removeFirst() }
                        return .dequeued(front)
                    }
                }
            }
            scenario.joinAll()
            let verdict = LinearizabilityChecker.check(recorder.history, model: QueueModel<Int>())
            Harness.check(verdict.isLinearizable, "\(verdict)")
        }
    }

    @Test("a queue whose dequeue is one critical section is linearizable in every schedule")
    func atomicDequeue() throws {
        let report = try Harness.run(
            "atomic dequeue", options: ExplorationOptions(strategy: .exhaustive(preemptionBound: 2), schedules: 2_000),
            Self.dequeuers(atomicDequeue: true))
        #expect(report.failure == nil)
        #expect(report.exhausted)
    }

    @Test("a dequeue split in two critical sections is caught, with the values dequeued twice")
    func splitDequeue() throws {
        let report = try Harness.run(
            "split dequeue", options: ExplorationOptions(strategy: .exhaustive(preemptionBound: 2), schedules: 2_000),
            Self.dequeuers(atomicDequeue: false))
        let failure = try #require(report.failure)
        guard case .invariant(let message, _, _, _) = failure.reason else {
            Issue.record("expected a broken invariant, got \(failure.reason)")
            return
        }
        #expect(message.hasPrefix("not linearizable (unique-value queue check): "))
        #expect(message.contains("both dequeued 1, which was enqueued only once"))
    }
}
