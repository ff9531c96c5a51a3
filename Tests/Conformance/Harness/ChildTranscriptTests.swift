import CShim
import Foundation
@testable import Harness
import Testing

/// What the parent reads of an isolated child's standard error.
@Suite("Harness: the isolated child's transcript")
struct ChildTranscriptTests {
    static let token =
        "H4.dbb806d5.random.1.0."
        + "zCAAAAAsBAgYBAAMFBAYGABYBCA4EAgACAQIDBQQGBgIWFQgCGAEGBBUAAQkLDQcKEx8GAwIJBQYCBwUGAxIGBAAFAV0CCA"

    /// Reads `text` as a child's standard error.
    static func transcript(of text: String) throws -> ChildTranscript {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try pipe.fileHandleForWriting.close()
        return ChildTranscript.read(pipe.fileHandleForReading, killing: Process(), afterSilence: 3_600)
    }

    @Test("a crash line that a heartbeat cut in two still gives the crash's token")
    func heartbeatInsideTheCrashLine() throws {
        let cut = try #require(Self.token.lastIndex(of: ".")).samePosition(in: Self.token)!
        let prefix = Self.token[...cut]
        let steps = Self.token[Self.token.index(after: cut)...]
        let text = "fatal error\n\(CrashReportText.parentMarker)\(prefix)\(ChildChannel.heartbeat)\n\(steps)\nafter\n"
        let transcript = try Self.transcript(of: text)
        #expect(transcript.crashToken?.description == Self.token)
        #expect(transcript.tail == "fatal error\nafter")
    }

    @Test("heartbeats on lines of their own are not part of the transcript")
    func heartbeatLines() throws {
        let transcript = try Self.transcript(
            of:
                "\(ChildChannel.heartbeat)\nsome output\n\(ChildChannel.heartbeat)\n"
                + "\(CrashReportText.parentMarker)\(Self.token)\n"
        )
        #expect(transcript.crashToken?.description == Self.token)
        #expect(transcript.tail == "some output")
    }

    @Test(
        "a process the child started that keeps its standard error open ends the read once the child has ended"
    )
    func grandchildHoldingThePipe() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The background sleeper inherits the pipe and would write one more line a minute
        // later, had it not been killed with the child's group; it prints its PID first.
        process.arguments = [
            "-c", "(sleep 60; echo late >&2) & echo \"sleeper $!\" >&2; echo \"last words\" >&2"
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        try errors.fileHandleForWriting.close()
        let transcript = ChildTranscript.read(errors.fileHandleForReading, killing: process, afterSilence: 3_600)
        process.waitUntilExit()
        #expect(!transcript.timedOut)
        #expect(transcript.tail.hasSuffix("last words"), "the read went on after the child ended")
        let sleeper = try #require(transcript.tail.split(separator: "\n").first { $0.hasPrefix("sleeper ") })
        let pid = try #require(pid_t(sleeper.dropFirst("sleeper ".count)))
        #expect(cshim_wait_for_process_exit(pid, 10_000) == 1, "the child's own child was left running")
    }
}
