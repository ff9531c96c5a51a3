import Harness
import Primitives

/// Stress tests of the seam's own operations: the litmus tests of a memory model, and a
/// counter under a mutex.
public enum SeamStressTests {
    /// What the reader of ``messagePassing`` saw: the flag, then the data it publishes.
    public struct Publication: Hashable, Sendable, CustomStringConvertible {
        /// Whether the reader saw the flag set.
        public let sawFlag: Bool
        /// The data the reader read after the flag.
        public let data: Int

        public var description: String { "flag \(sawFlag ? "set" : "clear"), data \(data)" }
    }

    /// Message passing: one thread writes the data, then sets a flag; another reads the
    /// flag, then the data. Seeing the flag set and the old data would mean the atomics
    /// reorder, which sequentially consistent ones never do.
    public static let messagePassing = StressTest<Publication>(outcomes: [
        .acceptable(Publication(sawFlag: false, data: 0), meaning: "the reader ran before the writer"),
        .acceptable(Publication(sawFlag: true, data: 42), meaning: "the reader ran after the writer"),
        .interesting(Publication(sawFlag: false, data: 42), meaning: "the reader ran between the two stores"),
        .forbidden(Publication(sawFlag: true, data: 0), meaning: "the flag became visible before the data it publishes")
    ]) { scenario in
        let data = SeamAtomic(0)
        let flag = SeamAtomic(false)
        let seen = AtomicBox<Publication?>(nil)
        scenario.spawn {
            data.store(42)
            flag.store(true)
        }
        scenario.spawn {
            let sawFlag = flag.load()
            seen.store(Publication(sawFlag: sawFlag, data: data.load()))
        }
        scenario.joinAll()
        return seen.load()!
    }

    /// Two threads each increment a plain counter under a ``SeamMutex`` 100 times.
    public static let mutexCounter = StressTest<Int>(outcomes: [
        .acceptable(200, meaning: "every increment counted"),
        .forbidden(meaning: "increments lost: the mutex let two threads in") { $0 != 200 }
    ]) { scenario in
        final class Counter: @unchecked Sendable {
            let mutex = SeamMutex()
            var value = 0
        }
        let counter = Counter()
        for _ in 0..<2 {
            scenario.spawn {
                for _ in 0..<100 {
                    counter.mutex.withLock { counter.value += 1 }
                }
            }
        }
        scenario.joinAll()
        return counter.mutex.withLock { counter.value }
    }
}
