import Harness
import Primitives

/// An ``AsyncCondition`` and its ``AsyncSignal``.
public struct ConditionPair: Sendable {
    /// The condition tasks wait on.
    public let condition: AsyncCondition
    /// The signal that releases them.
    public let signal: AsyncSignal

    /// A fresh, unsignalled pair.
    public init() {
        (condition, signal) = AsyncCondition.makeCondition()
    }
}

/// A one-shot event as a sequential model: a wait returns released once the signal was
/// sent, and times out only while it was not.
public struct ConditionModel: SequentialModel, Sendable, CustomStringConvertible {
    /// The event's operations.
    public enum Operation: Hashable, Sendable, CustomStringConvertible {
        /// Sends the signal.
        case signal
        /// Waits, for at most `seconds` of virtual time.
        case wait(seconds: Int)
        /// Reads whether the signal was sent.
        case isSignalled

        public var description: String {
            switch self {
            case .signal: "signal()"
            case .wait(let seconds): "wait(\(seconds) s)"
            case .isSignalled: "isSignalled"
            }
        }
    }

    /// What they return.
    public enum Result: Hashable, Sendable, CustomStringConvertible {
        case signalled
        case released
        case timedOut
        case value(Bool)

        public var description: String {
            switch self {
            case .signalled: "signalled"
            case .released: "released"
            case .timedOut: "timed out"
            case .value(let value): "\(value)"
            }
        }
    }

    /// Whether the signal was sent.
    public var signalled = false

    /// An unsignalled event.
    public init() {}

    public mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .signal:
            signalled = true
            return .signalled
        case .wait:
            return signalled ? .released : .timedOut
        case .isSignalled:
            return .value(signalled)
        }
    }

    public var description: String { signalled ? "signalled" : "not signalled" }
}

/// The generated scenarios of an async condition: signals, reads of whether it was
/// signalled, and waits that give up after 1 or 2 seconds of virtual time, from tasks.
public enum ConditionOperations {
    /// The operations on a fresh condition.
    public static func test() -> LinearizabilityTest<ConditionPair, ConditionModel> {
        LinearizabilityTest(model: ConditionModel()) { ConditionPair() }
            .operation(.signal) { pair in
                pair.signal.signal()
                return .signalled
            }
            .operation(.isSignalled) { pair in .value(pair.condition.isSignalled) }
            .operation(ConditionModel.Operation.wait, .int(in: 1...2)) { pair, seconds in
                await withTaskGroup(of: ConditionModel.Result.self) { group in
                    group.addTask {
                        do {
                            try await pair.condition.wait()
                            return .released
                        } catch {
                            return .timedOut
                        }
                    }
                    group.addTask {
                        try? await Task.sleep(for: .seconds(seconds), clock: SeamClock())
                        return .timedOut
                    }
                    let first = await group.next() ?? .timedOut
                    group.cancelAll()
                    return first
                }
            }
    }
}
