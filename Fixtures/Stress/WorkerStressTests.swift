import Harness
import Primitives

/// Stress tests of ``WorkerThread``.
public enum WorkerStressTests {
    /// How two `sync` calls from two threads went, against a `stop()` from a third.
    public struct SyncCalls: Hashable, Sendable, CustomStringConvertible {
        /// Calls that returned their body's result from the worker.
        public let returned: Int
        /// Calls refused with ``WorkerThreadError/stopped``.
        public let refused: Int

        public var description: String { "\(returned) returned, \(refused) refused" }
    }

    /// Two threads call `sync` while a third stops the worker: each call either runs on
    /// the worker and returns its result, or is refused as stopped.
    public static let syncAgainstStop = StressTest<SyncCalls>(outcomes: [
        .acceptable(meaning: "every call returned or was refused") { $0.returned + $0.refused == 2 }
    ]) { scenario in
        let worker = WorkerThread()
        let returned = SeamAtomic(0)
        let refused = SeamAtomic(0)
        do {
            _ = try worker.start()
        } catch {
            Harness.check(false, "start failed: \(error)")
        }
        for caller in 0..<2 {
            scenario.spawn {
                do {
                    let result = try worker.sync { worker.isCurrent ? caller : -1 }
                    Harness.check(result == caller, "sync returned \(result), not \(caller) from the worker")
                    returned.add(1)
                } catch WorkerThreadError.stopped {
                    refused.add(1)
                }
            }
        }
        scenario.spawn { worker.stop() }
        scenario.joinAll()
        worker.stop()
        return SyncCalls(returned: returned.load(), refused: refused.load())
    }
}
