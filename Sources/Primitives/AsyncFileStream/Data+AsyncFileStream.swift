#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Data {
    /// Reads the whole file `url` names, suspending the task instead of blocking its thread.
    ///
    /// Throws whatever ``URL/openForReading()``, ``AsyncFileStream/readToEnd()`` and
    /// ``AsyncFileStream/close()`` throw.
    public init(asyncContentsOf url: URL) async throws {
        let stream = try url.openForReading()
        let contents = try await stream.readToEnd()
        try await stream.close()
        self = contents
    }

    /// Writes this data to the file `url` names, replacing its contents (or creating it,
    /// as ``URL/openForWriting()`` does), suspending the task instead of blocking its thread.
    /// Not atomic: a failure or cancellation midway leaves part of the data in the file.
    ///
    /// Throws whatever ``URL/openForWriting()``, ``AsyncFileStream/write(_:)`` and
    /// ``AsyncFileStream/close()`` throw.
    public func asyncWrite(to url: URL) async throws {
        let stream = try url.openForWriting()
        try await stream.write(self)
        try await stream.close()
    }
}
