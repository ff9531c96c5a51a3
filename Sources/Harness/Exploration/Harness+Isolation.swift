import Foundation
import Testing

/// How an exploration is protected from a crash of the code it runs.
public enum ExplorationIsolation: String, Sendable, Hashable {
    /// In the test's own process: a crash ends the process, after printing the replay token
    /// of the crashing schedule.
    case none
    /// In a child process running the same test, filtered to it and told which scenario to
    /// explore: a crash ends only the child, and the test records an issue with the replay
    /// token. Costs a process launch per exploration (tens of milliseconds).
    case process
}

extension Harness {
    /// The environment variable that makes a process the child of an isolated exploration:
    /// it holds the one scenario the child explores (others are skipped).
    static let childScenarioVariable = "HARNESS_CHILD_SCENARIO"
    static let childFailureBegin = "HARNESS-CHILD-FAILURE-BEGIN"
    static let childFailureEnd = "HARNESS-CHILD-FAILURE-END"

    /// The scenario this process explores as an isolated child, if it is one.
    static var childScenario: String? { ProcessInfo.processInfo.environment[childScenarioVariable] }

    /// Runs the current test again in a child process that explores only `scenario`, and
    /// records what it found: a crash with its replay token, or the child's failure report.
    static func exploreInChild(_ scenario: String, testID: String, sourceLocation: SourceLocation) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--filter", NSRegularExpression.escapedPattern(for: testID), "--testing-library", "swift-testing"]
        var environment = ProcessInfo.processInfo.environment
        environment[childScenarioVariable] = scenario
        // Swift's crash backtracer runs in a helper process that keeps the child's standard
        // error open; the report needs only the replay line. Under a sanitizer the helper
        // also fails (TSan: an internal check on fork; ASan: it hangs), hiding the signal.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Issue.record(Comment(rawValue: "could not start the isolated exploration of '\(scenario)': \(error)"), sourceLocation: sourceLocation)
            return
        }
        let output = forwardingProgress(from: errors.fileHandleForReading)
        process.waitUntilExit()
        if let report = childFailure(in: output) {
            Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
            return
        }
        switch process.terminationReason {
        case .uncaughtSignal:
            let replay = output.split(separator: "\n").first { $0.hasPrefix("\(ExplorationOptions.Variable.replay)='") }
            let detail = replay.map { "replay: \($0)" } ?? "it crashed before a schedule began:\n\(output.suffix(2_000))"
            Issue.record(
                Comment(rawValue: "a thread crashed (signal \(process.terminationStatus)) in scenario '\(scenario)', in an isolated process\n\(detail)"),
                sourceLocation: sourceLocation
            )
        case .exit where process.terminationStatus != 0:
            Issue.record(
                Comment(rawValue: "the isolated exploration of '\(scenario)' failed (exit status \(process.terminationStatus)):\n\(output.suffix(2_000))"),
                sourceLocation: sourceLocation
            )
        default:
            break
        }
    }

    /// Reads the child's standard error to its end, passing its progress lines on to this
    /// process's standard error as they arrive; returns all of it.
    private static func forwardingProgress(from handle: FileHandle) -> String {
        var output = Data()
        var forwarded = 0
        while case let chunk = handle.availableData, !chunk.isEmpty {
            output.append(chunk)
            while let newline = output[forwarded...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = output[forwarded...newline]
                if line.starts(with: Data(ProgressLine.prefix.utf8)) {
                    FileHandle.standardError.write(line)
                }
                forwarded = newline + 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes `report` where a parent process looks for it.
    static func reportToParent(_ report: String) {
        FileHandle.standardError.write(Data("\n\(childFailureBegin)\n\(report)\n\(childFailureEnd)\n".utf8))
    }

    private static func childFailure(in output: String) -> String? {
        guard let begin = output.range(of: "\(childFailureBegin)\n"),
              let end = output.range(of: "\n\(childFailureEnd)", range: begin.upperBound..<output.endIndex) else { return nil }
        return String(output[begin.upperBound..<end.lowerBound])
    }
}
