import Foundation

/// This test binary run again as a child process, the way `swift test` runs it, or a shell
/// command run with `swift test` standing for it.
struct TestProcess {
    /// What the child printed on standard output and standard error, and how it ended.
    struct Outcome {
        let output: String
        let status: Int32

        /// The replay commands its failures printed, in order.
        var replayCommands: [String] {
            output.split(separator: "\n").compactMap { line in
                line.range(of: "replay: ").map { String(line[$0.upperBound...]) }
            }
        }

        /// How many tests the run's closing line says ran, or `nil` without one.
        var testsRun: Int? {
            guard let line = output.split(separator: "\n").last(where: { $0.contains("Test run with ") }),
                let range = line.range(of: "Test run with ")
            else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// Runs this test binary with `arguments` and `environment` added to this process's
    /// (less its `HARNESS_` variables, and with failures not kept unless `environment` says).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        try launch(
            URL(fileURLWithPath: CommandLine.arguments[0]), ["--testing-library", "swift-testing"] + arguments,
            environment)
    }

    /// Runs `command` with `/bin/sh`, exactly as a user pastes it, where `swift test` runs
    /// this (already built) test binary: a shell function named `swift` stands for the
    /// command. (A script on the path would do too, but a file written and executed while
    /// other tests start processes can fail with "text file busy".)
    static func shell(_ command: String, environment: [String: String] = [:]) throws -> Outcome {
        let binary = CommandLine.arguments[0].replacingOccurrences(of: "'", with: "'\\''")
        let standIn = """
            swift() {
                [ "$1" = test ] || { echo "the stand-in runs only 'swift test', not 'swift $1'" >&2; exit 64; }
                shift
                exec '\(binary)' --testing-library swift-testing "$@"
            }
            """
        return try launch(URL(fileURLWithPath: "/bin/sh"), ["-c", standIn + "\n" + command], environment)
    }

    private static func launch(_ executable: URL, _ arguments: [String], _ environment: [String: String]) throws
        -> Outcome
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for variable in merged.keys where variable.hasPrefix("HARNESS_") {
            merged[variable] = nil
        }
        merged["HARNESS_KEEP_FAILURES"] = "0"
        merged.merge(environment) { $1 }
        process.environment = merged
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(output: String(decoding: data, as: UTF8.self), status: process.terminationStatus)
    }
}
