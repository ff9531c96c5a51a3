#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AsyncFileStream where Mode == WriteMode {
    /// Appends `data` at the current position of the file, returning once the system has
    /// taken all of it (it may not be on disk yet: this does not `fsync`).
    ///
    /// Throws ``AsyncFileStreamError/writeFailed(path:errno:)`` if writing fails, or
    /// `CancellationError` if the task is cancelled (see the type's discussion of
    /// cancellation); some of the data may have been written by then.
    public borrowing func write(_ data: Data) async throws {
        try await channel.write(data)
    }
}
