import CShim
import Foundation

/// What an isolated child wrote on its standard error, read by the parent as it arrives:
/// progress lines are passed on at once, heartbeats keep the child alive, and the rest is
/// kept to find the child's report, or the token and cause of its crash.
struct ChildTranscript {
    /// The report the child sent, if it got that far.
    private(set) var report: ExplorationReport?
    /// The schedule that crashed, if a controlled thread crashed.
    private(set) var crashToken: ReplayToken?
    /// Whether the child was killed for showing no progress.
    private(set) var timedOut = false
    /// Everything else the child wrote, line by line.
    private var lines: [Substring] = []
    /// The start of a line a heartbeat cut in two.
    private var brokenLine = ""

    /// Reads `handle` to its end, killing `process` when nothing arrives for
    /// `afterSilence` seconds. The end is the pipe's, or, once the child has ended, a second
    /// without a byte: a process the child started (Swift's crash backtracer, left running
    /// when the child is killed) may hold the pipe open for good. Whatever of the child's
    /// process group is left then is killed too.
    static func read(_ handle: FileHandle, killing process: Process, afterSilence: Double) -> ChildTranscript {
        var transcript = ChildTranscript()
        var pending = Data()
        var lastHeard = ContinuousClock.now
        let descriptor = handle.fileDescriptor
        let group = ChildGroup(process)
        while true {
            let ready = cshim_wait_readable(descriptor, 250)
            if ready == 0 || (ready < 0 && errno == EINTR) {
                if ContinuousClock.now - lastHeard > .seconds(1), group.hasEnded {
                    group.killAll()
                    break
                }
                if ContinuousClock.now - lastHeard > .seconds(afterSilence), !transcript.timedOut {
                    transcript.timedOut = true
                    group.killAll()
                }
                continue
            }
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            lastHeard = .now
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                transcript.take(piece: String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        if !pending.isEmpty { transcript.take(piece: String(decoding: pending, as: UTF8.self)) }
        return transcript
    }

    /// Takes a piece of text that ended with a newline. A line written in several pieces (the
    /// crash report, from a signal handler) can have a heartbeat written between two of them:
    /// the heartbeat then ends the piece, and the line goes on in the next one.
    private mutating func take(piece: String) {
        let text = brokenLine + piece
        brokenLine = ""
        if text != ChildChannel.heartbeat, text.hasSuffix(ChildChannel.heartbeat) {
            brokenLine = String(text.dropLast(ChildChannel.heartbeat.count))
        } else {
            take(text)
        }
    }

    private mutating func take(_ line: String) {
        if line.hasPrefix(ChildChannel.progressMarker) {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        } else if line.hasPrefix(ChildChannel.reportMarker) {
            report = try? JSONDecoder().decode(
                ExplorationReport.self, from: Data(line.dropFirst(ChildChannel.reportMarker.count).utf8))
        } else if line.hasPrefix(ChildChannel.crashMarker) {
            crashToken = try? ReplayToken(parsing: String(line.dropFirst(ChildChannel.crashMarker.count)))
        } else if line != ChildChannel.heartbeat {
            lines.append(line[...])
        }
    }

    /// The last lines the child wrote, for a report of how it ended.
    var tail: String {
        lines.suffix(20).joined(separator: "\n")
    }

    /// Why the child crashed: the runtime's fatal message, and the crashing thread's frames
    /// outside the harness when the runtime printed a backtrace. Without the backtracer (under
    /// a sanitizer) the runtime follows its message with a bare "Current stack trace:" of
    /// addresses, which is left out.
    var crashCause: String {
        let backtraceStart = lines.firstIndex { $0.hasPrefix("*** ") || $0 == "Current stack trace:" } ?? lines.endIndex
        let message = lines[..<backtraceStart]
            .filter { line in !line.isEmpty && line.unicodeScalars.first.map(\.isASCII) == true }
            .suffix(8)
        return (message + crashedFrames()).joined(separator: "\n")
    }

    /// The frames of the crashed thread in the backtrace, without the harness's own and the
    /// runtime's: `at <function> (<file>:<line>)`.
    private func crashedFrames() -> [Substring] {
        guard let header = lines.firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix(" crashed:") }) else {
            return []
        }
        var frames: [Substring] = []
        for line in lines[(header + 1)...] {
            if line.hasPrefix("Thread ") || line == "Registers:" { break }
            guard let address = line.range(of: " 0x"),
                let offset = line.range(of: " + ", range: address.upperBound..<line.endIndex),
                let at = line.range(of: " at ", options: .backwards)
            else { continue }
            let file = line[at.upperBound...]
            guard !line.contains("[thunk]"), file.hasPrefix("/"), !file.contains("<compiler-generated>"),
                !Self.internalSources.contains(where: { file.contains($0) })
            else { continue }
            let function = line[address.upperBound...].drop { $0 != " " }.dropFirst()
            let name = function[..<(function.range(of: " + ")?.lowerBound ?? offset.lowerBound)]
            frames.append("  at \(name) (\(file.split(separator: "/").last ?? file))")
            if frames.count == 8 { break }
        }
        return frames.isEmpty ? [] : ["crashed in:"] + frames
    }

    /// Sources whose frames say nothing about the user's code.
    private static let internalSources = ["/Sources/Harness/", "/Sources/CShim/", "/Sources/Primitives/Seam/"]
}

/// A child process and, when it leads a process group of its own (Foundation starts a child
/// so on Linux), the processes it started: those are killed with it.
private struct ChildGroup {
    private let leader: pid_t
    private let leadsGroup: Bool

    /// The group of `process`, read while it runs.
    init(_ process: Process) {
        leader = process.processIdentifier
        leadsGroup = getpgid(leader) == leader
    }

    /// Whether the child has ended (it may not have been reaped yet), or never started.
    /// (`Process.isRunning` can lag: Foundation learns of the end on a queue of its own.)
    var hasEnded: Bool { leader <= 0 || cshim_wait_for_process_exit(leader, 0) == 1 }

    /// Kills the child, and what is left of its group; nothing when it never started.
    func killAll() {
        guard leader > 0 else { return }
        if leadsGroup { kill(-leader, SIGKILL) }
        kill(leader, SIGKILL)
    }
}
