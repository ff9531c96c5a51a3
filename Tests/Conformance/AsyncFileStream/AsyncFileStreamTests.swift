import Foundation
@testable import Primitives
import Testing

/// Serialized: the memory test measures the whole process, and large files are best written
/// one at a time on a shared machine.
@Suite("AsyncFileStream", .serialized)
struct AsyncFileStreamTests {
    private typealias Support = FileTestSupport

    // MARK: Round trips

    @Test("data written is read back unchanged", arguments: [0, 1, 13, 4_096, (1 << 20) + 1])
    func roundTrip(count: Int) async throws {
        try await Support.withTemporaryURL { url in
            let original = Support.patterned(count: count)
            try await original.asyncWrite(to: url)
            #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == count)
            #expect(try await Data(asyncContentsOf: url) == original)
        }
    }

    @Test("a 64 MiB file round-trips, whole and in chunks", .timeLimit(.minutes(10)))
    func largeRoundTrip() async throws {
        try await Support.withTemporaryURL { url in
            let original = Support.patterned(count: 64 * Support.mebibyte)
            try await original.asyncWrite(to: url)
            #expect(try await Data(asyncContentsOf: url) == original)
            var offset = 0
            for try await chunk in try url.openForReading().chunks(ofSize: Support.mebibyte) {
                #expect(chunk.count == Support.mebibyte)
                #expect(chunk == original[offset..<(offset + chunk.count)])
                offset += chunk.count
            }
            #expect(offset == original.count)
        }
    }

    @Test("writing replaces the previous contents")
    func writingTruncates() async throws {
        try await Support.withTemporaryURL { url in
            try await Support.patterned(count: 100).asyncWrite(to: url)
            try await Data("short".utf8).asyncWrite(to: url)
            #expect(try await Data(asyncContentsOf: url) == Data("short".utf8))
        }
    }

    @Test("a created file gets permissions 0o644, less the umask")
    func createdFilePermissions() async throws {
        try await Support.withTemporaryURL { url in
            try await Data().asyncWrite(to: url)
            let mask = umask(0)
            umask(mask)
            let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            #expect(permissions == 0o644 & ~Int(mask))
        }
    }

    @Test("successive writes append, successive reads continue, and the end of the file reads as empty")
    func sequentialReadsAndWrites() async throws {
        try await Support.withTemporaryURL { url in
            let writer = try url.openForWriting()
            try await writer.write(Data("abc".utf8))
            try await writer.write(Data())
            try await writer.write(Data("defghij".utf8))
            try await writer.close()

            let reader = try url.openForReading()
            #expect(reader.path == url.path)
            #expect(try await reader.read(upToCount: 0) == Data())
            #expect(try await reader.read(upToCount: 3) == Data("abc".utf8))
            #expect(try await reader.read(upToCount: 4) == Data("defg".utf8))
            #expect(try await reader.read(upToCount: 10) == Data("hij".utf8))
            #expect(try await reader.read(upToCount: 10) == Data())
            #expect(try await reader.readToEnd() == Data())
            try await reader.close()
        }
    }

    @Test(
        "chunks have the requested size, the last may be shorter, and none is empty",
        arguments: [
            (10, 4, [4, 4, 2]), (10, 5, [5, 5]), (10, 20, [10]), (0, 4, [])
        ])
    func chunkSizes(fileSize: Int, chunkSize: Int, expected: [Int]) async throws {
        try await Support.withTemporaryURL { url in
            let original = Support.patterned(count: fileSize)
            try await original.asyncWrite(to: url)
            var chunks: [Data] = []
            for try await chunk in try url.openForReading().chunks(ofSize: chunkSize) { chunks.append(chunk) }
            #expect(chunks.map(\.count) == expected)
            #expect(chunks.reduce(Data(), +) == original)
        }
    }

    @Test("chunks continue from where the stream was, and a second iteration from where the first stopped")
    func chunksContinueFromThePosition() async throws {
        try await Support.withTemporaryURL { url in
            try await Data("0123456789".utf8).asyncWrite(to: url)
            let stream = try url.openForReading()
            #expect(try await stream.read(upToCount: 3) == Data("012".utf8))
            let chunks = stream.chunks(ofSize: 4)
            for try await chunk in chunks {
                #expect(chunk == Data("3456".utf8))
                break
            }
            var rest = Data()
            for try await chunk in chunks { rest.append(chunk) }
            #expect(rest == Data("789".utf8))
        }
    }

    // MARK: Memory

    /// Reads a 64 MiB file in 256 KiB chunks, sampling the resident set after each: it must
    /// stay within 16 MiB of where it started. A first pass, not measured, warms up what the
    /// process allocates once (Dispatch's threads and their malloc arenas: some 30 MiB when
    /// this test runs first). The control then reads the same file whole and must grow by at
    /// least 48 MiB, which shows the measurement would catch a sequence that buffered the file.
    /// The resident set is the process's: the test runs itself again in a child process of
    /// this test binary, where no other test allocates or frees memory meanwhile, and measures
    /// there.
    @Test(
        "reading in chunks keeps memory bounded, where reading whole does not",
        .enabled(if: FileTestSupport.canMeasureResidentSize, "needs /proc/self/statm, and no address sanitizer"),
        .timeLimit(.minutes(10))
    )
    func chunkedReadingKeepsMemoryBounded() async throws {
        guard ProcessInfo.processInfo.environment[Self.measuresAlone] == "1" else {
            let child = try TestProcess.run(
                ["--filter", "AsyncFileStreamTests/chunkedReadingKeepsMemoryBounded"],
                environment: [Self.measuresAlone: "1"])
            #expect(child.status == 0 && child.testsRun == 1, "the measuring child:\n\(child.output)")
            return
        }
        let fileSize = 64 * Support.mebibyte
        try await Support.withTemporaryURL { url in
            let writer = try url.openForWriting()
            for offset in stride(from: 0, to: fileSize, by: Support.mebibyte) {
                try await writer.write(Support.patterned(count: Support.mebibyte, from: offset))
            }
            try await writer.close()

            let chunkSize = 256 << 10
            for try await _ in try url.openForReading().chunks(ofSize: chunkSize) {}
            let baseline = try #require(Support.residentBytes())
            var peak = baseline
            var total = 0
            for try await chunk in try url.openForReading().chunks(ofSize: chunkSize) {
                #expect(chunk.count <= chunkSize)
                total += chunk.count
                peak = max(peak, Support.residentBytes() ?? 0)
            }
            #expect(total == fileSize)
            #expect(
                peak - baseline < 16 * Support.mebibyte,
                "chunked reading grew the resident set by \(peak - baseline) bytes")

            let beforeWhole = try #require(Support.residentBytes())
            let whole = try await Data(asyncContentsOf: url)
            let grown = (Support.residentBytes() ?? 0) - beforeWhole
            #expect(whole.count == fileSize)
            #expect(grown >= 48 * Support.mebibyte, "reading whole grew the resident set by only \(grown) bytes")
        }
    }

    /// Set in the child process that measures the resident set alone.
    private static let measuresAlone = "ASYNC_FILE_STREAM_TESTS_MEASURE_ALONE"

    // MARK: Errors

    @Test("a URL that is not a file URL is refused")
    func notFileURL() async throws {
        let url = try #require(URL(string: "https://example.com/file.txt"))
        #expect(throws: AsyncFileStreamError.notFileURL(url)) { _ = try url.openForReading() }
        #expect(throws: AsyncFileStreamError.notFileURL(url)) { _ = try url.openForWriting() }
        await #expect(throws: AsyncFileStreamError.notFileURL(url)) { _ = try await Data(asyncContentsOf: url) }
        #expect(AsyncFileStreamError.notFileURL(url).description.contains("https://example.com/file.txt"))
    }

    @Test("a missing file, or a missing directory to write into, is reported as not found")
    func missingFile() async throws {
        try await Support.withTemporaryURL { url in
            #expect(throws: AsyncFileStreamError.fileNotFound(path: url.path)) { _ = try url.openForReading() }
            let inMissingDirectory = url.appending(path: "file")
            #expect(throws: AsyncFileStreamError.fileNotFound(path: inMissingDirectory.path)) {
                _ = try inMissingDirectory.openForWriting()
            }
        }
    }

    @Test("a directory can be neither read nor written")
    func directory() async throws {
        try await Support.withTemporaryURL { url in
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            #expect(throws: AsyncFileStreamError.isDirectory(path: url.path)) { _ = try url.openForReading() }
            #expect(throws: AsyncFileStreamError.isDirectory(path: url.path)) { _ = try url.openForWriting() }
        }
    }

    #if os(Linux)
    /// Root ignores permission bits, and these tests run as root here; these two sysctl files
    /// deny the access even to root (the kernel checks their mode, shifted to the owner's
    /// bits, for root too): `drop_caches` is write-only, `osrelease` read-only.
    @Test(
        "a file the process may not open in that mode is reported as permission denied",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/sys/vm/drop_caches"), "needs Linux sysctl files")
    )
    func permissionDenied() async throws {
        let writeOnly = URL(filePath: "/proc/sys/vm/drop_caches")
        let readOnly = URL(filePath: "/proc/sys/kernel/osrelease")
        #expect(throws: AsyncFileStreamError.permissionDenied(path: writeOnly.path)) {
            _ = try writeOnly.openForReading()
        }
        #expect(throws: AsyncFileStreamError.permissionDenied(path: readOnly.path)) {
            _ = try readOnly.openForWriting()
        }
    }
    #else
    @Test(
        "a file the process may not open in that mode is reported as permission denied",
        .enabled(if: geteuid() != 0, "root ignores permission bits")
    )
    func permissionDenied() async throws {
        try await Support.withTemporaryURL { url in
            try await Data("secret".utf8).asyncWrite(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path)
            #expect(throws: AsyncFileStreamError.permissionDenied(path: url.path)) { _ = try url.openForReading() }
            #expect(throws: AsyncFileStreamError.permissionDenied(path: url.path)) { _ = try url.openForWriting() }
        }
    }
    #endif

    @Test(
        "a failing write reports the path and errno",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full")
    )
    func writeFailure() async throws {
        let stream = try URL(filePath: "/dev/full").openForWriting()
        await #expect(throws: AsyncFileStreamError.writeFailed(path: "/dev/full", errno: ENOSPC)) {
            try await stream.write(Data("x".utf8))
        }
        #expect(AsyncFileStreamError.writeFailed(path: "/dev/full", errno: ENOSPC).description.contains("/dev/full"))
    }

    @Test(
        "a failing read reports the path and errno",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem"), "needs /proc/self/mem")
    )
    func readFailure() async throws {
        // Offset 0 of a process's memory is never mapped: reading it fails with EIO.
        let stream = try URL(filePath: "/proc/self/mem").openForReading()
        await #expect(throws: AsyncFileStreamError.readFailed(path: "/proc/self/mem", errno: EIO)) {
            _ = try await stream.read(upToCount: 16)
        }
    }

    @Test("every error says what went wrong and where")
    func errorDescriptions() {
        let path = "/some/where/file"
        let descriptions = [
            AsyncFileStreamError.fileNotFound(path: path).description,
            AsyncFileStreamError.isDirectory(path: path).description,
            AsyncFileStreamError.permissionDenied(path: path).description,
            AsyncFileStreamError.openFailed(path: path, errno: EMFILE).description,
            AsyncFileStreamError.readFailed(path: path, errno: EIO).description,
            AsyncFileStreamError.writeFailed(path: path, errno: ENOSPC).description,
            AsyncFileStreamError.closeFailed(path: path, errno: EIO).description
        ]
        for description in descriptions { #expect(description.contains(path)) }
        #expect(descriptions[0].contains("no such file"))
        #expect(descriptions[1].contains("directory"))
        #expect(descriptions[2].contains("permission denied"))
        #expect(descriptions[3].contains(String(cString: strerror(EMFILE))))
        #expect(Set(descriptions).count == descriptions.count)
    }

    // MARK: Closing and cancellation

    @Test("close returns once the descriptor is closed", .timeLimit(.minutes(10)))
    func closeWaitsForTheDescriptor() async throws {
        try await Support.withTemporaryURL { url in
            try await Data("x".utf8).asyncWrite(to: url)
            let stream = try url.openForReading()
            let closed = stream.channel.descriptorClosed
            #expect(!closed.isSignalled)
            try await stream.close()
            #expect(closed.isSignalled)
        }
    }

    @Test("a stream destroyed without close closes its descriptor", .timeLimit(.minutes(10)))
    func destroyingClosesTheDescriptor() async throws {
        try await Support.withTemporaryURL { url in
            try await Data("x".utf8).asyncWrite(to: url)
            let closed = try url.openForReading().channel.descriptorClosed
            try await closed.wait()
        }
    }

    @Test("a read in a cancelled task throws CancellationError and consumes nothing")
    func cancelledRead() async throws {
        try await Support.withTemporaryURL { url in
            try await Data("abc".utf8).asyncWrite(to: url)
            let (error, rest) = try await Task {
                let stream = try url.openForReading()
                withUnsafeCurrentTask { $0?.cancel() }
                var error: (any Error)?
                do { _ = try await stream.read(upToCount: 3) } catch let thrown { error = thrown }
                return (error, stream.chunks(ofSize: 16))
            }.value
            #expect(error is CancellationError)
            var unread = Data()
            for try await chunk in rest { unread.append(chunk) }
            #expect(unread == Data("abc".utf8))
        }
    }

    @Test(
        "iterating chunks in a task cancelled midway throws CancellationError and closes the file",
        .timeLimit(.minutes(10))
    )
    func cancelledIteration() async throws {
        try await Support.withTemporaryURL { url in
            try await Support.patterned(count: 10 * Support.mebibyte).asyncWrite(to: url)
            let chunks = try url.openForReading().chunks(ofSize: Support.mebibyte)
            let closed = chunks.channel.descriptorClosed
            let (received, error) = await Task {
                var received = 0
                do {
                    for try await chunk in chunks {
                        received += chunk.count
                        withUnsafeCurrentTask { $0?.cancel() }
                    }
                    return (received, nil as (any Error)?)
                } catch {
                    return (received, error)
                }
            }.value
            #expect(received == Support.mebibyte)
            #expect(error is CancellationError)
            _ = consume chunks
            try await closed.wait()
        }
    }

    // MARK: Programmer errors and the seam

    @Test("a chunk size below 1 is a programmer error that traps")
    func chunkSizeBelowOneTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = try? URL(filePath: "/dev/null").openForReading().chunks(ofSize: 0)
        }
    }

    @Test("a negative read count is a programmer error that traps")
    func negativeReadCountTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = try? await URL(filePath: "/dev/null").openForReading().read(upToCount: -1)
        }
    }

    @Test("its close handshake goes through the runtime seam", .timeLimit(.minutes(10)))
    func closeGoesThroughTheSeam() async throws {
        try await Support.withTemporaryURL { url in
            try await Data("seam".utf8).asyncWrite(to: url)
            let recorder = RecordingController()
            let contents = SeamAtomic(0)
            let finished = SeamAtomic(false)
            recorder.record {
                let executor = QueueingTaskExecutor()
                Task(executorPreference: executor) {
                    let stream = try url.openForReading()
                    contents.store(try await stream.readToEnd().count)
                    try await stream.close()
                    finished.store(true)
                }
                executor.run(until: { finished.load() })
            }
            #expect(contents.load() == 4)
            let streamFiles = ["AsyncFileStream+FileChannel.swift", "AsyncCondition+Storage.swift"]
            let streamOperations = recorder.operations.filter { operation in
                streamFiles.contains { operation.location?.fileID.hasSuffix($0) == true }
            }
            let kinds = Set(streamOperations.map(\.kind))
            #expect(kinds.isSuperset(of: [.atomic, .lock, .unlock]), "recorded: \(kinds)")
        }
    }
}
