#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Why opening, reading, writing or closing an ``AsyncFileStream`` failed. Each case names
/// the path involved; ``description`` says what went wrong in words.
public enum AsyncFileStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL does not name a local file (it is `https:`, for instance). Only `file:` URLs
    /// can be opened.
    case notFileURL(URL)
    /// Nothing exists at the path (`ENOENT`), so there is nothing to read; or, when
    /// writing, a directory on the way to it is missing.
    case fileNotFound(path: String)
    /// The path names a directory, which cannot be read or written as a file.
    case isDirectory(path: String)
    /// The process may not open the path in the requested mode (`EACCES` or `EPERM`).
    case permissionDenied(path: String)
    /// `open(2)` failed for another reason; `errno` is its error number.
    case openFailed(path: String, errno: Int32)
    /// Reading failed; `errno` is the error number the system reported.
    case readFailed(path: String, errno: Int32)
    /// Writing failed; `errno` is the error number the system reported (`ENOSPC` for a full
    /// disk, for instance). Part of the data may have been written.
    case writeFailed(path: String, errno: Int32)
    /// Closing the file failed; `errno` is the error number the system reported. Data
    /// written earlier may not have reached the file.
    case closeFailed(path: String, errno: Int32)

    /// What went wrong, naming the path (or URL) and, where there is one, the system's
    /// words for the error number.
    public var description: String {
        switch self {
        case .notFileURL(let url):
            "cannot open \(url.absoluteString): not a file URL (only file: URLs name local files)"
        case .fileNotFound(let path):
            "cannot open \(path): no such file or directory"
        case .isDirectory(let path):
            "cannot open \(path): it is a directory, not a file"
        case .permissionDenied(let path):
            "cannot open \(path): permission denied"
        case .openFailed(let path, let code):
            "cannot open \(path): \(FileChannel.describe(errno: code)) (errno \(code))"
        case .readFailed(let path, let code):
            "reading \(path) failed: \(FileChannel.describe(errno: code)) (errno \(code))"
        case .writeFailed(let path, let code):
            "writing \(path) failed: \(FileChannel.describe(errno: code)) (errno \(code))"
        case .closeFailed(let path, let code):
            "closing \(path) failed: \(FileChannel.describe(errno: code)) (errno \(code))"
        }
    }
}
