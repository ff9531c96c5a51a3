#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an ``AsyncFileStream`` was opened for: ``ReadMode`` or ``WriteMode``. The mode is a
/// type parameter only, so that reading a stream opened for writing (and the reverse) does
/// not compile. Other conformances get no operations and cannot be opened.
public protocol AsyncFileStreamMode: Sendable {}

/// The mode of an ``AsyncFileStream`` opened with `URL.openForReading()`: it offers
/// `read(upToCount:)`, `readToEnd()` and `chunks(ofSize:)`.
public enum ReadMode: AsyncFileStreamMode {}

/// The mode of an ``AsyncFileStream`` opened with `URL.openForWriting()`: it offers
/// `write(_:)`.
public enum WriteMode: AsyncFileStreamMode {}

/// A file open for reading or for writing, whose reads and writes suspend the calling task
/// instead of blocking its thread.
///
/// ```swift
/// let stream = try url.openForReading()
/// let header = try await stream.read(upToCount: 16)
/// let rest = try await stream.readToEnd()
/// try await stream.close()
/// ```
///
/// **Ownership.** The stream is non-copyable: one owner at a time issues its operations, one
/// after another, so they never interleave. ``close()`` consumes it, so using a closed stream
/// does not compile. Destroying a stream that was not closed closes its file too, without
/// waiting and without reporting an error.
///
/// **How I/O happens.** The file is read and written sequentially from its current position
/// through a stream `DispatchIO` channel, whose handlers run on a private serial queue; the
/// task suspends until each operation completes and is resumed through
/// ``Seam/resume(_:with:file:line:)``. Operations proceed in pieces of at most 1 MiB.
/// Opening (`open(2)` and `fstat(2)`) happens synchronously on the calling thread.
///
/// **Cancellation.** An operation checks for cancellation before each piece (so before it
/// starts, too) and throws `CancellationError` there; the piece in progress always finishes,
/// so no descriptor or buffer is left in use. A read cancelled midway has consumed the bytes
/// of its finished pieces; a write cancelled midway has written its finished pieces. Either
/// way the file stays open until the stream is closed or destroyed.
///
/// **Errors.** Opening throws ``AsyncFileStreamError`` (typed); reads and writes throw
/// ``AsyncFileStreamError`` or `CancellationError`.
public struct AsyncFileStream<Mode: AsyncFileStreamMode>: ~Copyable, Sendable {
    /// The open file. The stream is its only owner until ``close()`` or
    /// ``chunks(ofSize:)`` consumes the stream; destroying the channel closes the file.
    let channel: FileChannel

    /// Opens the file at `url` for `access`.
    init(url: URL, access: FileChannel.Access) throws(AsyncFileStreamError) {
        channel = try FileChannel(url: url, access: access)
    }

    /// The path of the open file.
    public var path: String { channel.path }

    /// Closes the file and returns once its descriptor is closed.
    ///
    /// Throws ``AsyncFileStreamError/closeFailed(path:errno:)`` if closing reported an
    /// error (possible for written data that could not be stored). If the task is cancelled
    /// while this waits, it returns at once instead; the descriptor is still closed, moments
    /// later, and an error closing it is then not reported. Consuming: the stream cannot be
    /// used afterwards.
    public consuming func close() async throws(AsyncFileStreamError) {
        let channel = channel
        channel.requestClose()
        do {
            try await channel.descriptorClosed.wait()
        } catch {
            return
        }
        if let error = channel.closeError { throw error }
    }
}
