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
                  let range = line.range(of: "Test run with ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// Runs this test binary with `arguments` and `environment` added to this process's
    /// (less its `HARNESS_` variables, and with failures not kept unless `environment` says).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        try launch(URL(fileURLWithPath: CommandLine.arguments[0]), ["--testing-library", "swift-testing"] + arguments, environment)
    }

    /// Runs `command` with `/bin/sh`, exactly as a user pastes it, where `swift test` runs
    /// this (already built) test binary: a `swift` first on the path drops `test` and runs it.
    static func shell(_ command: String, environment: [String: String] = [:]) throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("harness-shim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let shim = directory.appendingPathComponent("swift")
        let script = """
            #!/bin/sh
            [ "$1" = test ] || { echo "the shim runs only 'swift test', not 'swift $1'" >&2; exit 64; }
            shift
            exec '\(CommandLine.arguments[0])' --testing-library swift-testing "$@"
            """
        try script.write(to: shim, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: shim.path)
        var environment = environment
        environment["PATH"] = directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try launch(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment)
    }

    private static func launch(_ executable: URL, _ arguments: [String], _ environment: [String: String]) throws -> Outcome {
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
