import Foundation

/// A failed execution: why it failed, the token that replays it, and its schedule.
public struct HarnessFailure: Error, Sendable, Codable, CustomStringConvertible {
    /// The scenario's name.
    public let scenario: String
    /// Why the execution failed.
    public let reason: ExecutionFailure
    /// Replays the execution exactly.
    public let token: ReplayToken
    /// Every step the execution took.
    public let trace: [TraceStep]
    /// The Swift Testing test that found it, as `Test.ID` spells it, when it ran in one.
    public let testID: String?

    /// How many steps the report's lanes show at most; the full trace has them all.
    public static let lanesShown = 60

    /// The shell command that replays this failure: `HARNESS_REPLAY` holds the token, and
    /// `--filter` selects exactly the test that found it (its ID escaped, since `--filter`
    /// reads a regular expression). Both ``Harness/explore(_:options:sourceLocation:_:)``
    /// and ``Harness/run(_:options:_:)`` replay a token from `HARNESS_REPLAY` that fits
    /// their scenario. A step-bound failure sets `HARNESS_MAX_STEPS` too, so the replay
    /// stops where the original did.
    public var replayCommand: String {
        var bound: Int?
        if case .stepBoundExceeded(let maxSteps) = reason { bound = maxSteps }
        return Self.replayCommand(token: token.description, testID: testID, maxSteps: bound)
    }

    /// The replay command for the token spelled `token`, run by the test `testID`, with a
    /// step bound when it matters.
    static func replayCommand(token: String, testID: String?, maxSteps: Int?) -> String {
        let bound = maxSteps.map { "\(ExplorationOptions.Variable.maxSteps)=\($0) " } ?? ""
        let filter = testID.map { " --filter '\(NSRegularExpression.escapedPattern(for: $0))'" } ?? ""
        return "\(bound)\(ExplorationOptions.Variable.replay)='\(token)' swift test\(filter)"
    }

    /// The same replay in code: options that replay the token.
    public var replayInCode: String {
        "ExplorationOptions(replay: try ReplayToken(parsing: \"\(token)\"))"
    }

    /// The report: what failed, how to replay it, and the last steps as lanes.
    public var message: String {
        """
        \(reason)
        scenario: \(scenario)
        replay: \(replayCommand)
        schedule (\(trace.count) steps\(trace.count > Self.lanesShown ? ", the last \(Self.lanesShown) shown" : "")):
        \(lanes(last: Self.lanesShown))
        """
    }

    /// The whole report, with every step.
    public var fullReport: String {
        """
        \(reason)
        scenario: \(scenario)
        replay: \(replayCommand)
        in code: \(replayInCode)
        strategy: \(token.strategy), seed 0x\(String(token.seed, radix: 16)), execution \(token.execution)
        schedule (\(trace.count) steps):
        \(lanes(last: trace.count))
        """
    }

    public var description: String { message }

    /// The last `count` steps drawn as one lane per thread, each step with its source location.
    public func lanes(last count: Int) -> String {
        let threads = (trace.compactMap(\.thread).max() ?? 0) + 1
        let width = 34
        func cell(_ text: String) -> String {
            text.count > width - 1 ? String(text.prefix(width - 2)) + "… " : text.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        var lines = ["step  " + (0..<threads).map { cell("T\($0)") }.joined()]
        let shown = trace.suffix(count)
        var index = trace.count - shown.count
        for step in shown {
            let number = String(index).padding(toLength: 6, withPad: " ", startingAt: 0)
            if let thread = step.thread {
                lines.append(number + String(repeating: " ", count: width * thread) + step.summary)
            } else {
                lines.append(number + "[scheduler] " + step.summary)
            }
            index += 1
        }
        return lines.joined(separator: "\n")
    }
}
