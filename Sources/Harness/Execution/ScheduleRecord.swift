import CShim
import Foundation

/// The schedule running now, as far as it got: its token without the steps, and the bytes of
/// the steps taken. A crash handler prints the steps from here, and an isolated child keeps
/// its record in a file its parent reads after the child died, however it died. The executions
/// of one exploration take turns with one record, each beginning it anew.
final class ScheduleRecord: @unchecked Sendable {
    /// The record, for a crash report to print the steps from.
    let pointer: UnsafeMutablePointer<cshim_schedule_record>
    /// Where the steps' bytes go.
    let stepBytes: UnsafeMutablePointer<UInt8>
    /// How many bytes the steps may take.
    let stepCapacity: Int
    private let byteSize: Int
    /// Whether the record is a mapping of a shared file, rather than memory of its own.
    private let isMapped: Bool
    /// The crash report of the executions that take turns with the record, made by the
    /// first (``crashReport(prefix:suffix:)``).
    private var report: UnsafeMutablePointer<cshim_crash_report>?

    /// A record of at most `stepCapacity` bytes of steps in memory of its own; in the file at
    /// `sharedFile` when given, which is made that size and mapped shared. Throws the errno
    /// value of the call that failed.
    init(stepCapacity: Int, sharedFile: String?) throws(POSIXError) {
        byteSize = cshim_schedule_record_size(stepCapacity)
        let memory: UnsafeMutableRawPointer
        if let sharedFile {
            memory = try Self.mapShared(sharedFile, size: byteSize)
            isMapped = true
        } else {
            guard let allocated = malloc(byteSize) else { throw POSIXError(.ENOMEM) }
            memory = allocated
            isMapped = false
        }
        pointer = memory.bindMemory(to: cshim_schedule_record.self, capacity: 1)
        cshim_schedule_record_init(pointer, stepCapacity)
        stepBytes = cshim_schedule_record_steps(pointer)
        self.stepCapacity = stepCapacity
    }

    deinit {
        if let report { cshim_crash_report_destroy(report) }
        if isMapped {
            munmap(pointer, byteSize)
        } else {
            free(pointer)
        }
    }

    /// Begins a schedule whose token starts with `tokenPrefix`, with no step taken yet.
    func begin(tokenPrefix: UnsafePointer<CChar>) {
        _ = cshim_schedule_record_begin(pointer, tokenPrefix)
    }

    /// The crash report printing `prefix`, the record's steps and `suffix`, for the execution
    /// that takes its turn with the record: one report, its texts replaced for each execution,
    /// so that an execution allocates none. Valid while the record lives.
    func crashReport(prefix: UnsafePointer<CChar>, suffix: UnsafePointer<CChar>)
        -> UnsafeMutablePointer<cshim_crash_report>
    {
        let ready: UnsafeMutablePointer<cshim_crash_report>?
        if let report {
            ready = cshim_crash_report_set_text(report, prefix, suffix) ? report : nil
        } else {
            report = cshim_crash_report_create(prefix, suffix, pointer)
            ready = report
        }
        guard let ready else { preconditionFailure("the harness ran out of memory creating a crash report") }
        return ready
    }

    /// Publishes that `count` bytes of the steps are valid.
    func setByteCount(_ count: Int) {
        cshim_schedule_record_set_byte_count(pointer, count)
    }

    /// The token of the last schedule recorded in the file at `path` by a process that has
    /// ended, with the steps it took; `nil` when no schedule began (or the file holds no record).
    static func lastSchedule(inFile path: String) -> ReplayToken? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return data.withUnsafeBytes { buffer in
            var prefix: UnsafePointer<CChar>?
            var prefixLength = 0
            var steps: UnsafePointer<UInt8>?
            var byteCount = 0
            guard
                cshim_schedule_record_read(
                    buffer.baseAddress, buffer.count, &prefix, &prefixLength,
                    &steps, &byteCount),
                let prefix, let steps
            else { return nil }
            let prefixBytes = UnsafeRawBufferPointer(start: prefix, count: prefixLength)
            return try? ReplayToken(
                parsing: String(decoding: prefixBytes, as: UTF8.self),
                stepBytes: Array(UnsafeBufferPointer(start: steps, count: byteCount))
            )
        }
    }

    private static func mapShared(_ path: String, size: Int) throws(POSIXError) -> UnsafeMutableRawPointer {
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw Self.lastError }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(size)) == 0 else { throw Self.lastError }
        let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapping, mapping != MAP_FAILED else { throw Self.lastError }
        return mapping
    }

    private static var lastError: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
