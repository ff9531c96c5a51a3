import Foundation
import Primitives

#if canImport(Runtime)
import Runtime
#endif

/// The places in the code under test where suspended tasks go on: resume points
/// (``RuntimeTask/resumePoints``) symbolicated with the toolchain's `Runtime` module, which
/// reads the binaries' debug information. Frames in the harness's own sources, and frames
/// without a source location (the standard library, the runtime, compiler-generated thunks),
/// are left out.
enum ResumePointSymbols {
    /// Every resume point symbolicated so far, with its place or `nil` when it is not in
    /// the code under test. Process-wide because addresses are the process's; a deadlock is
    /// re-run while its schedule is shrunk, and reading debug information is slow.
    private static let places = DirectlyLocked<[UInt: CodePlace?]>([:])
    /// Every task-creation stack symbolicated so far, with its creation place or `nil`: the
    /// same code creates its tasks from the same stack in every execution, and a failure is
    /// named again for each schedule that shrinking tries. Each stack is symbolicated once.
    private static let creationPlaces = DirectlyLocked<[[UInt]: CreationPlace]>([:])

    /// A creation stack's place, as symbolicated, and how many times it was.
    private struct CreationPlace {
        let place: CodePlace?
        var symbolications: Int
    }

    /// The places of `points` in the code under test, in the order of `points`.
    static func userPlaces(of points: [UInt]) -> [CodePlace] {
        let unknown = places.withLock { known in points.filter { known[$0] == nil } }
        if !unknown.isEmpty {
            let found = symbolicate(unknown)
            places.withLock { known in
                for (point, place) in zip(unknown, found) { known[point] = .some(place) }
            }
        }
        return places.withLock { known in points.compactMap { known[$0] ?? nil } }
    }

    /// The directory of the harness's sources, whose frames are the harness's own.
    private static let harnessSources =
        URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().path + "/"

    /// Symbolicates `points` as the async frames of one backtrace: the `Runtime` module
    /// symbolicates only a `Backtrace`, which it builds from its compact format
    /// (`docs/CompactBacktraceFormat.md` in the Swift repository): a header byte for
    /// version 0 with 64-bit words, an `async` instruction with an absolute 8-byte address
    /// per point, and `end`.
    private static func symbolicate(_ points: [UInt]) -> [CodePlace?] {
        #if canImport(Runtime)
        guard let symbolicated = symbolicated(points, instruction: asyncResumePoint) else {
            return points.map { _ in nil }
        }
        let frames = symbolicated.frames.filter { frame in
            if case .asyncResumePoint = frame.captured { return true }
            return false
        }
        guard frames.count == points.count else { return points.map { _ in nil } }
        return frames.map(userPlace)
        #else
        // A toolchain without the `Runtime` module: the tasks are named without their places.
        return points.map { _ in nil }
        #endif
    }

    #if canImport(Runtime)
    /// The architecture the backtrace is for: this process's.
    private static let architecture = (try? Backtrace.capture(limit: 1).architecture) ?? "x86_64"

    /// The process's images, captured once: `ImageMap.capture()` reads each mapped image's
    /// header through plain loads, and a mapping another thread removes meanwhile ends the
    /// process (a core of an isolated child showed SIGSEGV in `getElfImageInfo` there, while a
    /// failure's report was symbolicated); the images the code under test runs from stay.
    private static let images = ImageMap.capture()

    /// The compact format's instructions for a frame given by an absolute 8-byte address: an
    /// async resume point, and a return address.
    private static let asyncResumePoint: UInt8 = 0x3F
    private static let returnAddress: UInt8 = 0x2F

    /// `addresses`, each a frame of the kind `instruction` codes, as one symbolicated backtrace:
    /// the compact format's header byte for version 0 with 64-bit words, an instruction with
    /// the absolute address per frame, and `end`.
    private static func symbolicated(_ addresses: [UInt], instruction: UInt8) -> SymbolicatedBacktrace? {
        var bytes: [UInt8] = [0x02]
        for address in addresses {
            bytes.append(instruction)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(address) >> UInt64($0 * 8)) }
        }
        bytes.append(0)
        let encoded = Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let json = #"{"architecture":"\#(architecture)","backtrace":"\#(encoded)"}"#
        guard let backtrace = try? JSONDecoder().decode(Backtrace.self, from: Data(json.utf8)) else { return nil }
        return backtrace.symbolicated(with: images, options: [.showSourceLocations])
    }

    /// Where `frame` is in the code under test: `nil` for a frame in the harness's sources,
    /// without a source file of Swift code (the runtime, the C library, a standard-library
    /// function inlined from its interface), or in a macro's expansion (`@Test`'s thunks),
    /// which the compiler writes to a file of its own, named as no source is.
    private static func userPlace(_ frame: SymbolicatedBacktrace.Frame) -> CodePlace? {
        guard let symbol = frame.symbol, let location = symbol.sourceLocation, location.line > 0,
            location.path.hasPrefix("/"), location.path.hasSuffix(".swift"), !location.path.hasPrefix(harnessSources)
        else { return nil }
        let file = URL(fileURLWithPath: location.path).lastPathComponent
        guard !file.hasPrefix("@__swiftmacro_") else { return nil }
        return CodePlace(
            file: file,
            line: location.line,
            function: functionName(symbol.name)
        )
    }

    /// Whether the function named `name` (demangled) is one of the standard library's that
    /// create a task.
    private static func createsTask(_ name: String) -> Bool {
        name.contains("Task")
            && [".init(", ".detached(", ".addTask(", ".addTaskUnlessCancelled("].contains { name.contains($0) }
    }
    #endif

    /// The line of the code under test that created a task, in `returnAddresses`, the stack of
    /// the thread that queued the task's first job: the first frame in that code outside the
    /// call that creates a task (`Task.init`, `Task.detached`, a group's `addTask`); `nil` when
    /// the stack holds no such call (the job was not the task's first) or no frame of the code
    /// under test.
    static func creationPlace(returnAddresses: [UInt]) -> CodePlace? {
        if let known = creationPlaces.withLock({ $0[returnAddresses] }) { return known.place }
        let place = symbolicatedCreationPlace(returnAddresses)
        return creationPlaces.withLock { known in
            known[returnAddresses, default: CreationPlace(place: place, symbolications: 0)].symbolications += 1
            return known[returnAddresses]?.place ?? place
        }
    }

    /// How many times the creation stack `returnAddresses` was symbolicated: at most once,
    /// however many reports named its task (two threads asking at once may both do it).
    static func symbolications(ofCreationStack returnAddresses: [UInt]) -> Int {
        creationPlaces.withLock { $0[returnAddresses]?.symbolications ?? 0 }
    }

    private static func symbolicatedCreationPlace(_ returnAddresses: [UInt]) -> CodePlace? {
        #if canImport(Runtime)
        guard let frames = symbolicated(returnAddresses, instruction: returnAddress)?.frames else { return nil }
        guard let create = frames.firstIndex(where: { $0.symbol.map { createsTask($0.name) } == true }) else {
            return nil
        }
        return frames[(create + 1)...].lazy.compactMap(userPlace).first
        #else
        return nil
        #endif
    }

    /// Where the return address `address` is in the code under test: its innermost frame
    /// there (of the function, or of one inlined into it); `nil` when there is none.
    static func place(returnAddress address: UInt) -> CodePlace? {
        #if canImport(Runtime)
        return symbolicated([address], instruction: returnAddress)?.frames.lazy.compactMap(userPlace).first
        #else
        return nil
        #endif
    }

    /// A resume function's name as its source spells it: `Peer.handshake()` for
    /// `(1) await resume partial function for Peer.handshake() async -> ()`.
    private static func functionName(_ symbol: String) -> String {
        var name = Substring(symbol)
        if let range = name.range(of: " function for ") { name = name[range.upperBound...] }
        if let range = name.range(of: " async") { name = name[..<range.lowerBound] }
        return String(name)
    }
}
