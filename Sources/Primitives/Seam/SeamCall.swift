/// An operation the code under test called on a drop-in (``HarnessDispatchQueue``,
/// ``HarnessDispatchSemaphore``, ``HarnessDispatchGroup``), which a drop-in announces to its
/// controller (``SeamController/willCall(_:on:insides:at:)``) so that a report can show the
/// call the user wrote in place of the seam operations that carry it out.
public struct SeamCall: Sendable, Hashable {
    /// What kind of drop-in the call is on. Each case's raw value is the word reports print.
    public enum Object: String, Sendable, Hashable, CaseIterable {
        /// A ``HarnessDispatchQueue``.
        case queue
        /// A ``HarnessDispatchSemaphore``.
        case semaphore
        /// A ``HarnessDispatchGroup``.
        case group
    }

    /// Which method the code called. Each case's raw value is the word reports print: the
    /// method's name.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case sync, async, asyncAfter, wait, signal, enter, leave, notify
    }

    /// How a call ended.
    public enum Outcome: Sendable, Hashable {
        /// It did what it was called for.
        case completed
        /// A wait with a timeout returned because the timeout passed first.
        case timedOut
    }

    /// What kind of drop-in the call is on.
    public let object: Object
    /// Which method the code called.
    public let operation: Operation
    /// Whether the block runs alone on a concurrent queue (a `.barrier` flag, or any block of
    /// a serial queue): a queue's block that is not exclusive only reads what the queue guards,
    /// side by side with other such blocks. Always `true` off a queue.
    public let isExclusive: Bool

    /// The call of `operation` on a drop-in of kind `object`; `isExclusive` as documented.
    public init(_ object: Object, _ operation: Operation, isExclusive: Bool = true) {
        self.object = object
        self.operation = operation
        self.isExclusive = isExclusive
    }
}

extension Seam {
    /// Runs `body`, which carries out `call` on `object` with seam operations, announced to the
    /// calling thread's controller: ``SeamController/willCall(_:on:insides:at:)`` first, with
    /// `insides` (the seam objects the drop-in uses for it), and
    /// ``SeamController/didEndCall(_:)`` with `outcome(result)` after, or with `.completed` if
    /// `body` throws. Without a controller, it only runs `body`.
    static func performing<Result>(
        _ call: SeamCall,
        on object: AnyObject,
        insides: [AnyObject],
        file: StaticString,
        line: UInt,
        outcome: (Result) -> SeamCall.Outcome = { _ in .completed },
        _ body: () throws -> Result
    ) rethrows -> Result {
        guard let controller = controllerForCurrentThread() else { return try body() }
        controller.willCall(call, on: object, insides: insides, at: SeamLocation(fileID: file, line: line))
        var ended = SeamCall.Outcome.completed
        defer { controller.didEndCall(ended) }
        let result = try body()
        ended = outcome(result)
        return result
    }
}
