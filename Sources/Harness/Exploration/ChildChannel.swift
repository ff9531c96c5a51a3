import Foundation
import Primitives

/// The lines an isolated child writes for its parent, on standard error, among whatever
/// else the process prints there.
enum ChildChannel {
    /// Starts the line that holds the report, as JSON.
    static let reportMarker = "HARNESS-CHILD-REPORT "
    /// A line that says the child made progress since the last.
    static let heartbeat = "HARNESS-CHILD-ALIVE"
    /// Starts the line that holds the token of a crashed schedule.
    static let crashMarker = "HARNESS-CHILD-CRASH "
    /// Starts every progress line of an exploration (its label's first word), which the
    /// parent passes on at once.
    static let progressMarker = "harness: "

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
    static func sendHeartbeats(while activity: ExplorationActivity) {
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
