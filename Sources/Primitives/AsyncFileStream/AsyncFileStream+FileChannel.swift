#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("AsyncFileStream needs open, fstat and close from Darwin, Glibc or Musl")
#endif

/// An open file descriptor driven by a stream `DispatchIO` channel: what an
/// ``AsyncFileStream`` or an ``AsyncFileChunks`` sequence owns. Reads and writes proceed
/// from the current file position; the channel's handlers run on a private serial queue,
/// never on the calling task's thread, so no cooperative thread blocks on I/O.
///
/// Every operation awaits its completion, so no operation is pending when the channel is
/// closed. The descriptor is closed by the channel's cleanup handler, which then releases
/// ``descriptorClosed``; closing happens at ``requestClose()`` or, failing that, at `deinit`.
final class FileChannel: Sendable {
    /// The largest piece one DispatchIO operation reads or writes: reads and writes check
    /// for cancellation between pieces, and a write copies one piece at a time.
    static let pieceLength = 1 << 20

    /// The file's path, for error messages.
    let path: String
    /// Released once the descriptor is closed.
    let descriptorClosed: AsyncCondition

    private let io: DispatchIO
    private let queue: DispatchQueue
    /// The error number closing reported, or 0; valid once `descriptorClosed` is released.
    private let closeErrorNumber: SeamAtomic<Int32>
    private let closeRequested = SeamAtomic(false)

    /// What a channel is opened for.
    enum Access {
        /// Read from the start of an existing file.
        case reading
        /// Write from the start of a file truncated to nothing, created if missing.
        case writing

        /// The `open(2)` flags for this access.
        var openFlags: Int32 {
            switch self {
            case .reading: O_RDONLY | O_CLOEXEC
            case .writing: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
            }
        }
    }

    /// Opens the file at `url` for `access`, creating it with permissions 0o644 (less the
    /// umask) when writing to a missing file.
    init(url: URL, access: Access) throws(AsyncFileStreamError) {
        guard url.isFileURL else { throw .notFileURL(url) }
        let path = url.path(percentEncoded: false)
        let descriptor = open(path, access.openFlags, 0o644)
        guard descriptor >= 0 else { throw AsyncFileStreamError(openingPath: path, errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .openFailed(path: path, errno: code)
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            close(descriptor)
            throw .isDirectory(path: path)
        }

        let (descriptorClosed, closed) = AsyncCondition.makeCondition()
        let closeErrorNumber = SeamAtomic<Int32>(0)
        let queue = DispatchQueue(label: "AsyncFileStream")
        self.path = path
        self.descriptorClosed = descriptorClosed
        self.closeErrorNumber = closeErrorNumber
        self.queue = queue
        io = DispatchIO(type: .stream, fileDescriptor: descriptor, queue: queue) { channelError in
            let closeError = close(descriptor) == 0 ? 0 : errno
            closeErrorNumber.store(channelError != 0 ? channelError : closeError)
            closed.signal()
        }
    }

    /// Closes the channel if nobody did, without waiting: the cleanup handler closes the
    /// descriptor moments later, on the channel's queue.
    deinit {
        if !closeRequested.load() { io.close() }
    }

    /// Closes the channel; its cleanup handler then closes the descriptor and releases
    /// ``descriptorClosed``. Only the first call does anything.
    func requestClose() {
        if !closeRequested.exchange(true) { io.close() }
    }

    /// What closing reported: `nil`, or the error. Valid once ``descriptorClosed`` has been
    /// released.
    var closeError: AsyncFileStreamError? {
        let code = closeErrorNumber.load()
        return code == 0 ? nil : .closeFailed(path: path, errno: code)
    }

    /// Reads up to `count` bytes, fewer only at the end of the file, in pieces of at most
    /// ``pieceLength``. Throws `CancellationError` before any piece if the task is
    /// cancelled; the bytes read by then are lost to the caller.
    func read(upToCount count: Int) async throws -> Data {
        precondition(count >= 0, "AsyncFileStream.read(upToCount:) needs a count of at least 0, got \(count)")
        var result = Data()
        var remaining = count
        while remaining > 0 {
            try Task.checkCancellation()
            let length = min(remaining, Self.pieceLength)
            let piece = try await readPiece(length: length)
            result.append(piece)
            remaining -= piece.count
            if piece.count < length { break }
        }
        return result
    }

    /// Writes all of `data`, in pieces of at most ``pieceLength``. Throws
    /// `CancellationError` before any piece if the task is cancelled; the pieces before it
    /// have been written.
    func write(_ data: Data) async throws {
        var start = data.startIndex
        while start < data.endIndex {
            try Task.checkCancellation()
            let end = data.index(start, offsetBy: Self.pieceLength, limitedBy: data.endIndex) ?? data.endIndex
            try await writePiece(data[start..<end])
            start = end
        }
    }

    /// One DispatchIO read of `length` bytes; its handler may deliver them in several parts.
    private func readPiece(length: Int) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            var received = Data()
            io.read(offset: 0, length: length, queue: queue) { [path] done, part, error in
                if error == 0, let part {
                    part.enumerateBytes { bytes, _, _ in received.append(bytes) }
                }
                guard done else { return }
                if error == 0 {
                    Seam.resume(continuation, with: .success(received))
                } else {
                    Seam.resume(continuation, with: .failure(AsyncFileStreamError.readFailed(path: path, errno: error)))
                }
            }
        }
    }

    /// One DispatchIO write of `piece`, copied into dispatch-owned memory.
    private func writePiece(_ piece: Data) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let bytes = piece.withUnsafeBytes { DispatchData(bytes: $0) }
            io.write(offset: 0, data: bytes, queue: queue) { [path] done, _, error in
                guard done else { return }
                if error == 0 {
                    Seam.resume(continuation, with: .success(()))
                } else {
                    Seam.resume(
                        continuation, with: .failure(AsyncFileStreamError.writeFailed(path: path, errno: error)))
                }
            }
        }
    }
}

extension AsyncFileStreamError {
    /// Classifies the `errno` of a failed `open(2)` of `path`.
    init(openingPath path: String, errno code: Int32) {
        switch code {
        case ENOENT: self = .fileNotFound(path: path)
        case EISDIR: self = .isDirectory(path: path)
        case EACCES, EPERM: self = .permissionDenied(path: path)
        default: self = .openFailed(path: path, errno: code)
        }
    }
}

extension FileChannel {
    /// The system's words for the error number `code`.
    static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "unknown error" }
        return String(cString: text)
    }
}
