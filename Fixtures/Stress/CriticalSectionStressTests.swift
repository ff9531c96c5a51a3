import Harness
import Primitives

/// Stress tests of ``CriticalSection``.
public enum CriticalSectionStressTests {
    /// How a timed entry raced a holder.
    public enum TimedEntry: String, Hashable, Sendable, CustomStringConvertible {
        /// The entry got in: before the holder, or after it left.
        case entered
        /// The entry gave up without running its closure.
        case timedOut
        /// The closure ran while the holder was inside.
        case overlapped

        public var description: String { rawValue }
    }

    /// A holder keeps the section for 200 µs while another thread tries to enter within
    /// 50 µs; the outcome says how the entry ended.
    public static let timedEntry = StressTest<TimedEntry>(outcomes: [
        .acceptable(.entered, meaning: "the entry ran alone"),
        .acceptable(.timedOut, meaning: "the entry gave up without running"),
        .forbidden(.overlapped, meaning: "two threads inside the section at once")
    ]) { scenario in
        final class Shared: @unchecked Sendable {
            var inside = 0
        }
        let section = CriticalSection()
        let shared = Shared()
        let entry = AtomicBox<TimedEntry?>(nil)
        scenario.spawn {
            section.execute {
                shared.inside += 1
                Seam.sleep(for: .microseconds(200))
                shared.inside -= 1
            }
        }
        scenario.spawn {
            let outcome = section.execute(timeout: .microseconds(50)) {
                shared.inside == 0 ? TimedEntry.entered : .overlapped
            }
            switch outcome {
            case .completed(let entered): entry.store(entered)
            case .timedOut: entry.store(.timedOut)
            }
        }
        scenario.joinAll()
        return entry.load()!
    }
}
