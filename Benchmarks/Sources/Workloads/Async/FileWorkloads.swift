import Foundation
import Primitives

/// `AsyncFileStream` throughput against `FileHandle` and plain `read(2)`/`write(2)` loops,
/// in chunks of ``chunkSize`` bytes, through the page cache (nothing is synced to disk).
enum FileWorkloads {
    /// The bytes one operation reads or writes.
    static let chunkSize = 64 << 10
    /// Chunks per file: every this many operations the file is closed and opened again, so
    /// files stay small whatever the sample size.
    static let chunksPerFile = 256

    static let comparisons = [
        Comparison(streamWrite, against: fileHandleWrite, target: .none),
        Comparison(streamWrite, against: plainWrite, target: .none),
        Comparison(streamRead, against: fileHandleRead, target: .none),
        Comparison(streamRead, against: plainRead, target: .none)
    ]

    // MARK: Writing

    static let streamWrite = Workload("AsyncFileStream.write", bytesPerOperation: chunkSize) {
        (operations: Int) async -> Duration in
        let file = ScratchFile()
        let chunk = Data(repeating: 0x5A, count: chunkSize)
        return await timed {
            for count in fileSizes(operations) {
                await uncancelled {
                    let stream = try file.url.openForWriting()
                    for _ in 0..<count { try await stream.write(chunk) }
                    try await stream.close()
                }
            }
        }
    }

    static let fileHandleWrite = Workload("FileHandle.write(contentsOf:)", bytesPerOperation: chunkSize) { operations in
        let file = ScratchFile()
        let chunk = Data(repeating: 0x5A, count: chunkSize)
        return timed {
            for count in fileSizes(operations) {
                mustSucceed {
                    let handle = FileHandle(fileDescriptor: file.openTruncated(), closeOnDealloc: false)
                    for _ in 0..<count { try handle.write(contentsOf: chunk) }
                    try handle.close()
                }
            }
        }
    }

    static let plainWrite = Workload("write(2) loop", bytesPerOperation: chunkSize) { operations in
        let file = ScratchFile()
        let chunk = [UInt8](repeating: 0x5A, count: chunkSize)
        return timed {
            for count in fileSizes(operations) {
                let descriptor = file.openTruncated()
                for _ in 0..<count {
                    chunk.withUnsafeBytes { bytes in
                        var offset = 0
                        while offset < bytes.count {
                            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                            precondition(written > 0, "write(2) failed with errno \(errno)")
                            offset += written
                        }
                    }
                }
                precondition(close(descriptor) == 0, "close(2) failed with errno \(errno)")
            }
        }
    }

    // MARK: Reading

    static let streamRead = Workload("AsyncFileStream.read(upToCount:)", bytesPerOperation: chunkSize) {
        (operations: Int) async -> Duration in
        let file = ScratchFile(filledWith: chunksPerFile * chunkSize)
        var total = 0
        let elapsed = await timed {
            for count in fileSizes(operations) {
                await uncancelled {
                    let stream = try file.url.openForReading()
                    for _ in 0..<count { total &+= try await stream.read(upToCount: chunkSize).count }
                    try await stream.close()
                }
            }
        }
        precondition(
            total == operations * chunkSize, "AsyncFileStream read \(total) bytes, not \(operations * chunkSize)")
        return elapsed
    }

    static let fileHandleRead = Workload("FileHandle.read(upToCount:)", bytesPerOperation: chunkSize) { operations in
        let file = ScratchFile(filledWith: chunksPerFile * chunkSize)
        var total = 0
        let elapsed = timed {
            for count in fileSizes(operations) {
                mustSucceed {
                    let handle = try FileHandle(forReadingFrom: file.url)
                    for _ in 0..<count { total &+= try handle.read(upToCount: chunkSize)?.count ?? 0 }
                    try handle.close()
                }
            }
        }
        precondition(total == operations * chunkSize, "FileHandle read \(total) bytes, not \(operations * chunkSize)")
        return elapsed
    }

    static let plainRead = Workload("read(2) loop into one buffer", bytesPerOperation: chunkSize) { operations in
        let file = ScratchFile(filledWith: chunksPerFile * chunkSize)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        let elapsed = timed {
            for count in fileSizes(operations) {
                let descriptor = open(file.url.path, O_RDONLY)
                precondition(descriptor >= 0, "open(2) failed with errno \(errno)")
                for _ in 0..<count {
                    var filled = 0
                    while filled < chunkSize {
                        let got = read(descriptor, buffer.baseAddress! + filled, chunkSize - filled)
                        precondition(got > 0, "read(2) failed or ended early: \(got), errno \(errno)")
                        filled += got
                    }
                    total &+= filled
                }
                precondition(close(descriptor) == 0, "close(2) failed with errno \(errno)")
            }
        }
        precondition(total == operations * chunkSize, "read(2) read \(total) bytes, not \(operations * chunkSize)")
        return elapsed
    }

    /// How many chunks each file of a sample of `operations` chunks holds.
    static func fileSizes(_ operations: Int) -> [Int] {
        let whole = Array(repeating: chunksPerFile, count: operations / chunksPerFile)
        return operations % chunksPerFile == 0 ? whole : whole + [operations % chunksPerFile]
    }
}

/// A file in the temporary directory, removed when the value is destroyed.
private final class ScratchFile: Sendable {
    let url: URL

    /// A name for a file that does not exist yet.
    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("benchmarks-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    }

    /// A file of `size` bytes.
    convenience init(filledWith size: Int) {
        self.init()
        precondition(
            FileManager.default.createFile(atPath: url.path, contents: Data(repeating: 0xA5, count: size)),
            "could not create the benchmark file \(url.path)"
        )
    }

    /// Opens the file for writing as `AsyncFileStream` does (`O_WRONLY | O_CREAT | O_TRUNC`,
    /// mode 0o644) and returns the descriptor.
    func openTruncated() -> Int32 {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(descriptor >= 0, "open(2) of the benchmark file \(url.path) failed with errno \(errno)")
        return descriptor
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
