import Foundation
import Workloads

/// Another harness's build of the harness speed scenarios, running as a child process that
/// explores on request (`Peers/shuttle/src/main.rs` is the one for Shuttle): one request a
/// line, `<scenario> <strategy> <schedules> <seed>`, one answer a line,
/// `<schedules> <elapsed nanoseconds> <heap allocations>`, timed and counted by the peer
/// around the exploration alone. The process stays up between samples, warm like ours.
final class PeerProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What one request measured.
    struct Sample {
        let schedules: Int
        let elapsed: Duration
        let allocations: Int

        var schedulesPerSecond: Double { Double(schedules) / (elapsed.nanoseconds / 1e9) }
        var allocationsPerSchedule: Double { Double(allocations) / Double(schedules) }
    }

    private let process = Process()
    private let requests = Pipe()
    private let answers = Pipe()
    private var pending = Data()

    /// Starts the peer at `path`.
    init(path: String) throws(Failure) {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "--peer \(path) is not an executable file (Peers/shuttle/build.sh builds one)")
        }
        process.executableURL = URL(fileURLWithPath: path)
        process.standardInput = requests
        process.standardOutput = answers
        do {
            try process.run()
        } catch {
            throw Failure(description: "--peer \(path) did not start: \(error)")
        }
    }

    deinit {
        try? requests.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Explores the peer's `scenario` under `strategy` for `schedules` schedules from `seed`.
    func explore(_ scenario: String, strategy: String, schedules: Int, seed: Int) throws(Failure) -> Sample {
        let request = "\(scenario) \(strategy) \(schedules) \(seed)\n"
        do {
            try requests.fileHandleForWriting.write(contentsOf: Data(request.utf8))
        } catch {
            throw Failure(description: "the peer stopped reading requests: \(error)")
        }
        let line = try readLine()
        let fields = line.split(separator: " ").compactMap { Int($0) }
        guard fields.count == 3 else {
            throw Failure(description: "the peer answered '\(line)' to '\(request.dropLast())'")
        }
        return Sample(schedules: fields[0], elapsed: .nanoseconds(fields[1]), allocations: fields[2])
    }

    private func readLine() throws(Failure) -> String {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                return line
            }
            let chunk = answers.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "the peer exited without answering") }
            pending.append(chunk)
        }
    }
}
