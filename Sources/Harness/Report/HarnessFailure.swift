/// A failed execution: why it failed, the token that replays it, and its schedule.
public struct HarnessFailure: Error, Sendable, CustomStringConvertible {
    /// The scenario's name.
    public let scenario: String
    /// Why the execution failed.
    public let reason: ExecutionFailure
    /// Replays the execution exactly.
    public let token: ReplayToken
    /// Every step the execution took.
    public let trace: [TraceStep]

    /// How many steps the report's lanes show at most; the full trace has them all.
    public static let lanesShown = 60

    /// The command that replays this failure, for the test `testID` (as Swift Testing
    /// spells `Test.ID`) when known.
    public func replayCommand(testID: String?) -> String {
        let filter = testID.map { " --filter '\($0)'" } ?? ""
        return "\(ExplorationOptions.Variable.replay)='\(token)' swift test\(filter)"
    }

    /// The report: what failed, how to replay it, and the last steps as lanes.
    public func message(testID: String?) -> String {
        """
        \(reason)
        scenario: \(scenario)
        replay: \(replayCommand(testID: testID))
        schedule (\(trace.count) steps\(trace.count > Self.lanesShown ? ", the last \(Self.lanesShown) shown" : "")):
        \(lanes(last: Self.lanesShown))
        """
    }

    /// The whole report, with every step.
    public var fullReport: String {
        """
        \(reason)
        scenario: \(scenario)
        token: \(token)
        strategy: \(token.strategy), seed 0x\(String(token.seed, radix: 16)), execution \(token.execution)
        schedule (\(trace.count) steps):
        \(lanes(last: trace.count))
        """
    }

    public var description: String { message(testID: nil) }

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
