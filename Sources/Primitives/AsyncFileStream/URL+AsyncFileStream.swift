#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension URL {
    /// Opens the file this URL names for reading, from its start.
    ///
    /// Throws ``AsyncFileStreamError/notFileURL(_:)`` if this is not a `file:` URL,
    /// ``AsyncFileStreamError/fileNotFound(path:)``,
    /// ``AsyncFileStreamError/isDirectory(path:)``,
    /// ``AsyncFileStreamError/permissionDenied(path:)``, or
    /// ``AsyncFileStreamError/openFailed(path:errno:)`` for any other failure of `open(2)`.
    public func openForReading() throws(AsyncFileStreamError) -> AsyncFileStream<ReadMode> {
        try AsyncFileStream(url: self, access: .reading)
    }

    /// Opens the file this URL names for writing, from its start: an existing file is
    /// truncated to nothing, a missing one is created with permissions 0o644 (read and write
    /// for the owner, read for others, less the process's umask). Its directory must exist.
    ///
    /// Throws like ``openForReading()``; ``AsyncFileStreamError/fileNotFound(path:)`` means
    /// a directory on the way is missing.
    public func openForWriting() throws(AsyncFileStreamError) -> AsyncFileStream<WriteMode> {
        try AsyncFileStream(url: self, access: .writing)
    }
}
