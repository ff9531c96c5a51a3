import Foundation
@testable import Harness
import Testing

/// The running schedule as a file another process reads.
@Suite("Harness: the schedule record")
struct ScheduleRecordTests {
    /// A path for a record file, removed after `body`.
    private static func withRecordFile(_ body: (String) throws -> Void) rethrows {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("schedule-record-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test("a record in a shared file gives the token of the last schedule begun, with the steps taken")
    func lastSchedule() throws {
        try Self.withRecordFile { path in
            let token = try ReplayToken(parsing: ChildTranscriptTests.token)
            let bytes = token.steps.flatMap(\.bytes)
            let record = try ScheduleRecord(stepCapacity: bytes.count + 8, sharedFile: path)
            #expect(ScheduleRecord.lastSchedule(inFile: path) == nil)
            record.begin(tokenPrefix: "H\(ReplayToken.formatVersion).0.random.1.0.")
            record.stepBytes[0] = 0
            record.setByteCount(1)
            let prefix = String(ChildTranscriptTests.token[...ChildTranscriptTests.token.lastIndex(of: ".")!])
            record.begin(tokenPrefix: prefix)
            #expect(ScheduleRecord.lastSchedule(inFile: path)?.steps == [])
            for (index, byte) in bytes.enumerated() { record.stepBytes[index] = byte }
            record.setByteCount(bytes.count)
            #expect(ScheduleRecord.lastSchedule(inFile: path) == token)
        }
    }

    @Test("a prefix too long for the record, or a file that holds no record, gives no token")
    func noToken() throws {
        try Self.withRecordFile { path in
            let record = try ScheduleRecord(stepCapacity: 16, sharedFile: path)
            record.begin(tokenPrefix: String(repeating: "x", count: 4_096))
            #expect(ScheduleRecord.lastSchedule(inFile: path) == nil)
        }
        try Self.withRecordFile { path in
            try Data("not a record".utf8).write(to: URL(fileURLWithPath: path))
            #expect(ScheduleRecord.lastSchedule(inFile: path) == nil)
        }
        #expect(ScheduleRecord.lastSchedule(inFile: "/nonexistent/record") == nil)
    }
}
