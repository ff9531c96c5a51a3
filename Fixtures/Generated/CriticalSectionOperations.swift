import Harness
import Primitives

/// A counter guarded by a ``CriticalSection``.
public final class GuardedCounter: @unchecked Sendable {
    /// The section under test.
    public let section = CriticalSection()
    /// Read and written inside the section only.
    var count = 0

    /// A counter at 0.
    public init() {}
}

/// A counter in a recursive critical section as a sequential model: increments (plain,
/// nested, timed) count one each; a hold enters, counts, and leaves later; a timed entry
/// times out only while a hold is inside. That last rule relies on the harness's virtual
/// clock, which moves while other work could run only by ``ExplorationOptions/timeoutRaceBound``
/// (100 ms by default) and otherwise only when nothing else can, so a timeout of a second or
/// more passes only while the holder sleeps inside; with an unbounded race (`nil`) a timed
/// entry may also give up while an increment holds the section, which this model rejects.
public struct CriticalSectionModel: SequentialModel, Sendable, CustomStringConvertible {
    /// The section's operations, as the history records them.
    public enum Operation: Hashable, Sendable, CustomStringConvertible {
        /// Counts one inside the section.
        case increment
        /// Counts one inside the section entered twice (recursively).
        case nestedIncrement
        /// Counts one inside the section, if it can be entered within the timeout.
        case timedIncrement(seconds: Int)
        /// A hold entered the section and counted one.
        case enter
        /// A hold left the section.
        case leave

        public var description: String {
            switch self {
            case .increment: "increment()"
            case .nestedIncrement: "nestedIncrement()"
            case .timedIncrement(let seconds): "timedIncrement(\(seconds) s)"
            case .enter: "enter"
            case .leave: "leave"
            }
        }
    }

    /// What they return.
    public enum Result: Hashable, Sendable, CustomStringConvertible {
        /// The count after the call's increment.
        case count(Int)
        /// A timed entry gave up without running.
        case timedOut
        /// A hold left.
        case left
        /// The model's answer to an entry while a hold is inside: never recorded, so no
        /// entry is placed there.
        case wouldWait

        public var description: String {
            switch self {
            case .count(let count): "\(count)"
            case .timedOut: "timed out"
            case .left: "left"
            case .wouldWait: "would wait"
            }
        }
    }

    /// The count.
    public var count = 0
    /// Whether a hold is inside.
    public var held = false

    /// A counter at 0, the section free.
    public init() {}

    public mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .increment, .nestedIncrement:
            guard !held else { return .wouldWait }
            count += 1
            return .count(count)
        case .timedIncrement:
            guard !held else { return .timedOut }
            count += 1
            return .count(count)
        case .enter:
            guard !held else { return .wouldWait }
            held = true
            count += 1
            return .count(count)
        case .leave:
            guard held else { return .wouldWait }
            held = false
            return .left
        }
    }

    public var description: String { "count \(count)\(held ? ", held" : "")" }
}

/// The generated scenarios of a critical section: a guarded counter incremented plainly,
/// recursively and with timeouts of 1 to 3 seconds, and held for 1 to 3 seconds of virtual
/// time.
public enum CriticalSectionOperations {
    /// The operations on a fresh counter.
    public static func test() -> LinearizabilityTest<GuardedCounter, CriticalSectionModel> {
        LinearizabilityTest(model: CriticalSectionModel()) { GuardedCounter() }
            .operation(.increment) { counter in
                counter.section.execute {
                    counter.count += 1
                    return .count(counter.count)
                }
            }
            .operation(.nestedIncrement) { counter in
                counter.section.execute {
                    counter.section.execute {
                        counter.count += 1
                        return .count(counter.count)
                    }
                }
            }
            .operation(CriticalSectionModel.Operation.timedIncrement, .int(in: 1...3)) { counter, seconds in
                let outcome = counter.section.execute(timeout: .seconds(seconds)) {
                    counter.count += 1
                    return counter.count
                }
                switch outcome {
                case .completed(let count): return .count(count)
                case .timedOut: return .timedOut
                }
            }
            .operation("hold", .int(in: 1...3)) { counter, seconds, recorder in
                let enter = recorder.invoke(.enter)
                var leave: Int?
                counter.section.execute {
                    counter.count += 1
                    recorder.respond(enter, with: .count(counter.count))
                    Seam.sleep(for: .seconds(seconds))
                    leave = recorder.invoke(.leave)
                }
                if let leave { recorder.respond(leave, with: .left) }
            }
    }
}
