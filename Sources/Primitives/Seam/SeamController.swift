/// Where in the source a seam operation was performed: what a harness shows for each step
/// of a schedule.
///
/// A plain value: it holds the UTF-8 bytes of its file ID by address (a literal's, or those of
/// a file ID given as text, interned once for the life of the process) and its line, so a
/// copy retains nothing. A controller copies locations at every step.
public struct SeamLocation: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The bytes of ``fileID``: immutable, and never freed.
    private let file: UnsafeBufferPointer<UInt8>
    /// The line of the call site.
    public let line: UInt

    /// Creates a location; seam operations create one from their `#fileID` and `#line`
    /// default arguments, and only when a controller is installed. Costs no allocation.
    @inline(__always)
    public init(fileID: StaticString, line: UInt) {
        file =
            fileID.hasPointerRepresentation
            ? UnsafeBufferPointer(start: fileID.utf8Start, count: fileID.utf8CodeUnitCount)
            : Self.internedBytes(of: fileID)
        self.line = line
    }

    /// The interned bytes of a file ID that is a single scalar rather than a literal's text.
    @inline(never)
    private static func internedBytes(of fileID: StaticString) -> UnsafeBufferPointer<UInt8> {
        InternedFileIDs.bytes(of: "\(fileID)")
    }

    /// Creates a location from a file ID held as text: one read back from a report. The text
    /// is interned: the first location of each distinct file ID keeps a copy of its bytes for
    /// the life of the process.
    public init(fileIDText: String, line: UInt) {
        file = InternedFileIDs.bytes(of: fileIDText)
        self.line = line
    }

    /// The `#fileID` of the call site (`Module/File.swift`).
    public var fileID: String { String(decoding: file, as: UTF8.self) }

    /// Whether ``fileID`` starts with `prefix`, found without building the string: a
    /// controller asks at every step.
    package func fileIDHasPrefix(_ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { prefix in file.starts(with: prefix) }
    }

    /// The file name alone, without its module. Found among the bytes, not the characters:
    /// a scenario names each task it starts by it.
    public var fileName: Substring {
        let start = file.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? file.startIndex
        return String(decoding: UnsafeBufferPointer(rebasing: file[start...]), as: UTF8.self)[...]
    }

    public var description: String { "\(fileID):\(line)" }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.line == rhs.line
            && (lhs.file.baseAddress == rhs.file.baseAddress && lhs.file.count == rhs.file.count
                || lhs.file.elementsEqual(rhs.file))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes: UnsafeRawBufferPointer(file))
        hasher.combine(line)
    }
}

/// The file IDs given to ``SeamLocation`` as text, each kept once, as bytes that live as long
/// as the process: there are as many as distinct source files read back from reports.
private enum InternedFileIDs {
    private static let table = DirectlyLocked<[String: UnsafeBufferPointer<UInt8>]>([:])

    /// The interned bytes of `fileID`.
    static func bytes(of fileID: String) -> UnsafeBufferPointer<UInt8> {
        table.withLock { table in
            if let bytes = table[fileID] { return bytes }
            let utf8 = Array(fileID.utf8)
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: utf8.count)
            _ = bytes.initialize(from: utf8)
            table[fileID] = UnsafeBufferPointer(bytes)
            return UnsafeBufferPointer(bytes)
        }
    }
}

/// A thread as a ``SeamController`` knows it. Issued by the controller; meaningless to any
/// other controller.
public struct SeamThreadID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The controller's number for the thread.
    public let rawValue: Int

    /// Wraps a controller-issued number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "T\(rawValue)" }
}

/// How a condition wait ended. Like POSIX, `.signalled` includes spurious wake-ups: a waiter
/// re-checks its predicate.
public enum SeamWaitResult: Sendable, Hashable {
    /// Woken by a signal or broadcast, or spuriously.
    case signalled
    /// The deadline passed first.
    case timedOut
}

/// What an atomic operation on a ``SeamAtomic`` does to its cell.
public enum SeamAtomicAccess: Sendable, Hashable, CustomStringConvertible {
    /// Reads the cell.
    case load
    /// Writes the cell.
    case store
    /// Reads and writes the cell in one indivisible step (exchange, compare-and-exchange, update).
    case readModifyWrite

    public var description: String {
        switch self {
        case .load: "load"
        case .store: "store"
        case .readModifyWrite: "read-modify-write"
        }
    }
}

/// Receives every operation of the runtime seam performed on a thread it controls.
///
/// A thread is controlled when it runs inside ``Seam/withController(_:thread:_:)`` or was
/// spawned through ``Seam/spawnThread(attributes:_:)`` by a controlled thread. Each
/// operation then calls exactly one requirement here, on the thread that performs it, and
/// the controller carries it out: a scheduler models locks, conditions, joins and time
/// itself, so that it knows who can run and decides who does; an observer performs the
/// real operation and records it (``SeamPassthroughController``).
///
/// Requirements that take a location are scheduling points: the calling thread may be
/// parked there while others run. `threadDidStart` is the first point of a new thread and
/// `threadWillExit` its last.
public protocol SeamController: AnyObject, Sendable {
    /// Acquires `mutex` for the calling thread, blocking while another thread holds it.
    /// A recursive mutex held by the caller is acquired again.
    func lock(_ mutex: SeamMutex, at location: SeamLocation)
    /// Acquires `mutex` if that needs no waiting; returns whether it did.
    func tryLock(_ mutex: SeamMutex, at location: SeamLocation) -> Bool
    /// Releases one acquisition of `mutex`, which the calling thread holds.
    func unlock(_ mutex: SeamMutex, at location: SeamLocation)

    /// Releases `mutex` (held by the caller), waits on `condition` until signalled, woken
    /// spuriously or past `deadline`, and re-acquires `mutex` before returning.
    func wait(
        on condition: SeamCondition,
        releasing mutex: SeamMutex,
        deadline: SeamInstant?,
        at location: SeamLocation
    ) -> SeamWaitResult
    /// Wakes at least one waiter of `condition`, if any.
    func signal(_ condition: SeamCondition, at location: SeamLocation)
    /// Wakes every waiter of `condition`.
    func broadcast(_ condition: SeamCondition, at location: SeamLocation)

    /// Called just before an atomic operation on `cell`; the seam then performs it. Under
    /// a scheduler that runs one thread at a time, the operation is indivisible from the
    /// other threads' point of view. `cell` is the object that stands for the cell: a
    /// controller that tells cells apart by `ObjectIdentifier` keeps it alive for as long as
    /// it does, so that no cell allocated meanwhile at the same address is taken for it.
    func willAccessAtomic(_ cell: AnyObject, _ access: SeamAtomicAccess, at location: SeamLocation)

    /// Called in the parent before it creates an OS thread; returns the new thread's identity.
    func threadWillSpawn(at location: SeamLocation) -> SeamThreadID
    /// Called in the parent when creating the OS thread for `thread` failed.
    func threadSpawnFailed(_ thread: SeamThreadID)
    /// Called first on the new thread, before its body.
    func threadDidStart(_ thread: SeamThreadID)
    /// Called last on a thread, after its body returned or it was cancelled and its
    /// cleanup handlers ran. The thread performs no seam operation after this.
    func threadWillExit(_ thread: SeamThreadID)
    /// Blocks until `thread` has exited (the seam then reaps the OS thread).
    func join(_ thread: SeamThreadID, at location: SeamLocation)
    /// Called just before the seam requests cancellation of `thread` with `pthread_cancel`.
    func willCancel(_ thread: SeamThreadID, at location: SeamLocation)
    /// Called at an explicit cancellation point, just before the seam's `pthread_testcancel`.
    func cancellationPoint(at location: SeamLocation)

    /// Offers the processor to another thread.
    func yield(at location: SeamLocation)
    /// The controller's current time on the monotonic clock.
    func now() -> SeamInstant
    /// Returns at or after `deadline` on the controller's clock.
    func sleep(until deadline: SeamInstant, at location: SeamLocation)

    /// Called just before a continuation is resumed through ``Seam/resume(_:with:file:line:)``.
    func willResumeContinuation(at location: SeamLocation)

    /// Called when the calling thread enters code that must not be preempted (see
    /// ``Seam/withoutPreemption(_:)``); regions nest.
    func enterNonPreemptibleRegion()
    /// Called when the calling thread leaves such a region.
    func exitNonPreemptibleRegion()

    /// Calls `wake` once, at or after `deadline` on the controller's clock, from a thread
    /// of the controller's choosing: how ``SeamClock`` suspends a task until a deadline.
    func wake(at deadline: SeamInstant, _ wake: @escaping @Sendable () -> Void)

    /// Called before the calling thread reads or writes state the OS keeps per thread
    /// (thread-specific storage): a controller that runs threads as coroutines must give the
    /// thread an OS thread of its own. Not a scheduling point; by default, nothing.
    func willUseThreadSpecificState(at location: SeamLocation)

    /// Called when a drop-in begins `call`, which the calling thread's code made on `object` at
    /// `location`: the seam operations the drop-in performs on `insides` (its own mutexes and
    /// conditions), on this thread or on the threads it starts, carry out calls on `object`,
    /// and the calling thread's next seam operation is this call's first. Calls nest: a call
    /// made in a block that a `sync` runs is announced inside it. Not a scheduling point; by
    /// default, nothing.
    func willCall(_ call: SeamCall, on object: AnyObject, insides: [AnyObject], at location: SeamLocation)
    /// Called when the calling thread's innermost call announced by
    /// ``willCall(_:on:insides:at:)`` returns, with how it ended. Not a scheduling point; by
    /// default, nothing.
    func didEndCall(_ outcome: SeamCall.Outcome)
}

extension SeamController {
    public func willUseThreadSpecificState(at location: SeamLocation) {}
    public func willCall(_ call: SeamCall, on object: AnyObject, insides: [AnyObject], at location: SeamLocation) {}
    public func didEndCall(_ outcome: SeamCall.Outcome) {}
}
