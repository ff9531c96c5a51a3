import Foundation
import Primitives

/// The child's side of an isolated exploration: it explores, sends its report to the
/// parent on standard error as one line, and ends.
extension Harness {
    /// Explores `scenario` in this child process, sends the report to the parent and exits;
    /// dies with the parent meanwhile. Records the running schedule in the file the parent
    /// named, which it reads should the child die without a report. The harness owns the process's executors here
    /// (``ProcessExecutors``), so every job of the scenario's tasks is its to schedule.
    static func serveParent(
        _ scenario: String,
        options: ExplorationOptions,
        testID: String?,
        environment: EnvironmentSnapshot,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) -> Never {
        let recordFile = environment.variables[childRecordVariable]
        ChildChannel.exitWhenParentEnds(removing: recordFile)
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
            ProcessExecutors.takeOver()
        }
        var explorer = Explorer(scenario: scenario, options: options, body: body, testID: testID)
        explorer.crashReport = .forParent
        explorer.scheduleRecordFile = recordFile
        ChildChannel.sendHeartbeats(while: explorer.activity)
        let report = explorer.run()
        ChildChannel.send(report)
        _exit(EXIT_SUCCESS)
    }
}

/// The lines an isolated child writes for its parent, on standard error, among whatever
/// else the process prints there.
enum ChildChannel {
    /// Starts the line that holds the report, as JSON.
    static let reportMarker = "HARNESS-CHILD-REPORT "
    /// A line that says the child made progress since the last.
    static let heartbeat = "HARNESS-CHILD-ALIVE"

    private static let writing = SeamMutex()

    /// Writes `line` and a newline in one piece.
    private static func write(_ line: String) {
        writing.withLockDirectly { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    static func send(_ report: ExplorationReport) {
        do {
            let json = try JSONEncoder().encode(report)
            write("\n" + reportMarker + String(decoding: json, as: UTF8.self))
        } catch {
            preconditionFailure("the harness could not encode its report for the parent process: \(error)")
        }
    }

    /// Writes a heartbeat every second in which `activity` showed a sign of life.
    static func sendHeartbeats(while activity: ActivityCounter) {
        Thread.detachNewThread {
            var last = activity.signsOfLife
            while true {
                Thread.sleep(forTimeInterval: 1)
                let current = activity.signsOfLife
                if current != last {
                    last = current
                    write(heartbeat)
                }
            }
        }
    }

    /// Ends the process when its standard input ends: the parent holds the other end of
    /// that pipe, and the kernel closes it when the parent dies, however it dies. First
    /// removes `recordFile`, which a parent that died can no longer read nor remove.
    static func exitWhenParentEnds(removing recordFile: String?) {
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                guard count == 0 || (count < 0 && errno != EINTR) else { continue }
                if let recordFile { unlink(recordFile) }
                _exit(EXIT_FAILURE)
            }
        }
    }
}
