#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AsyncFileStream where Mode == ReadMode {
    /// Reads the next bytes of the file: `count` of them, or fewer only if the file ends
    /// first. Returns empty data at the end of the file.
    ///
    /// Throws ``AsyncFileStreamError/readFailed(path:errno:)`` if reading fails, or
    /// `CancellationError` if the task is cancelled (see the type's discussion of
    /// cancellation).
    ///
    /// - Precondition: `count >= 0`.
    public borrowing func read(upToCount count: Int) async throws -> Data {
        try await channel.read(upToCount: count)
    }

    /// Reads from the current position to the end of the file, holding all of it in memory.
    /// For large files, iterate ``chunks(ofSize:)`` instead.
    ///
    /// Throws like ``read(upToCount:)``.
    public borrowing func readToEnd() async throws -> Data {
        try await channel.read(upToCount: .max)
    }

    /// Hands the open file over to an asynchronous sequence of its remaining bytes, in
    /// chunks of `chunkSize` bytes (the last one may be shorter), reading each only when the
    /// iteration asks for it: memory stays bounded by about one chunk however large the file.
    ///
    /// The sequence owns the file from then on and closes it when the sequence and its
    /// iterators are gone. Consuming: the stream cannot be used afterwards.
    ///
    /// - Precondition: `chunkSize >= 1`.
    public consuming func chunks(ofSize chunkSize: Int) -> AsyncFileChunks {
        AsyncFileChunks(channel: channel, chunkSize: chunkSize)
    }
}

/// The bytes of a file as an asynchronous sequence of chunks, read one at a time as the
/// iteration asks for them; made by ``AsyncFileStream/chunks(ofSize:)``.
///
/// ```swift
/// for try await chunk in try url.openForReading().chunks(ofSize: 1 << 20) {
///     digest.update(chunk)
/// }
/// ```
///
/// Every chunk holds exactly ``chunkSize`` bytes except the last, which may hold fewer; the
/// sequence ends at the end of the file and never yields an empty chunk. Nothing is read
/// ahead or buffered between chunks.
///
/// The sequence reads from one open file, so it is single-pass: a second iteration continues
/// where the first stopped. Iterate it from one task at a time; iterations running at once
/// would split the bytes between them in no defined way. The sequence closes the file when
/// it and all its iterators have been destroyed. An iterator throws
/// ``AsyncFileStreamError/readFailed(path:errno:)`` if reading fails and
/// `CancellationError` if its task is cancelled (checked before each read).
public struct AsyncFileChunks: AsyncSequence, Sendable {
    /// A chunk of the file's bytes.
    public typealias Element = Data

    /// The open file, shared by the sequence and its iterators; closed when the last of
    /// them is destroyed.
    let channel: FileChannel

    /// The size of every chunk but the last.
    public let chunkSize: Int

    init(channel: FileChannel, chunkSize: Int) {
        precondition(
            chunkSize >= 1, "AsyncFileStream.chunks(ofSize:) needs a chunk size of at least 1, got \(chunkSize)")
        self.channel = channel
        self.chunkSize = chunkSize
    }

    /// Returns an iterator that reads the file's next chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(channel: channel, chunkSize: chunkSize)
    }

    /// Reads the next chunk of the file on each call to ``next()``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: FileChannel
        let chunkSize: Int
        /// Set by a chunk shorter than `chunkSize`: the file ended, so no read is issued again.
        var reachedEnd = false

        /// Reads and returns the next chunk, or returns `nil` at the end of the file.
        public mutating func next() async throws -> Data? {
            guard !reachedEnd else { return nil }
            let chunk = try await channel.read(upToCount: chunkSize)
            reachedEnd = chunk.count < chunkSize
            return chunk.isEmpty ? nil : chunk
        }
    }
}
