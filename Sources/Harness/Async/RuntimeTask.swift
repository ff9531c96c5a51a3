import CShim

/// A task of the concurrency runtime, held (retained) by the harness so it can tell, once
/// nothing runs, whether the task has ended or waits, and where.
///
/// The runtime exports neither, so both are read from the task's memory, at the offsets of
/// the Swift 6.3 runtime on 64-bit platforms (`AsyncTask` in the runtime's `ABI/Task.h`,
/// mirrored for debuggers in `RemoteInspection/RuntimeInternals.h`): the job's task ID, the
/// function and async context the task resumes in, and the `IsComplete` flag of its status.
/// Each task is checked as it is taken: its ID's low bits must be where the job keeps them,
/// and its status must say it has not ended (it is being enqueued); a task that fails the
/// check is not held, and the harness knows of it only what its jobs show. What a suspended
/// task waits on is read from the innermost record of its status, the dependency record the
/// runtime adds as the task suspends (`TaskDependencyStatusRecord` in `ABI/TaskStatus.h`).
struct RuntimeTask {
    private let pointer: UnsafeMutableRawPointer

    /// Offsets into `AsyncTask` and `AsyncContext`, 64-bit.
    private enum Offset {
        static let idLowBits = 36
        static let resumeFunction = 56
        static let resumeContext = 64
        static let statusFlags = 96
        static let statusRecord = 104
        static let recordKind = 0
        static let dependentOn = 16
        static let dependencyKind = 32
        static let contextParent = 0
        static let contextResumeParent = 8
    }

    /// Flags of `ActiveTaskStatus`: running on a thread, queued on an executor, ended, and
    /// waiting on something its dependency record names.
    private static let isRunningFlag: UInt32 = 0x800
    private static let isEnqueuedFlag: UInt32 = 0x1000
    private static let isCompleteFlag: UInt32 = 0x2000
    private static let hasDependencyFlag: UInt32 = 0x4000

    /// `TaskStatusRecordKind::TaskDependency`, and the `DependencyKind`s of such a record.
    private static let dependencyRecordKind: UInt8 = 0
    private enum DependencyKind: UInt32 {
        case waitingOnTask = 1
        case waitingOnContinuation
        case waitingOnTaskGroup
        case enqueuedOnExecutor
    }

    /// Holds the task `job` runs, if it runs one and has the layout this type reads; `nil`
    /// for a job of no task (an actor draining its queue). Call as the job is enqueued.
    static func retaining(_ job: UnownedJob) -> RuntimeTask? {
        let taskID = jobTaskID(job)
        guard taskID != 0 else { return nil }
        let task = RuntimeTask(pointer: unsafeBitCast(job, to: UnsafeMutableRawPointer.self))
        let idLowBits = task.pointer.load(fromByteOffset: Offset.idLowBits, as: UInt32.self)
        guard idLowBits == UInt32(truncatingIfNeeded: taskID), !task.isComplete else { return nil }
        _ = task.object.retain()
        return task
    }

    /// Lets the task go; call once, and use the value no more.
    func release() {
        object.release()
    }

    /// The task as the Swift object it is (a native heap object), for retaining it.
    private var object: Unmanaged<AnyObject> { Unmanaged.fromOpaque(pointer) }

    /// Whether the task has ended (its body returned or threw).
    var isComplete: Bool {
        statusFlags & Self.isCompleteFlag != 0
    }

    private var statusFlags: UInt32 {
        pointer.load(fromByteOffset: Offset.statusFlags, as: UInt32.self)
    }

    /// The task's address, which a task waiting on it names (``Wait/task(_:)``).
    var address: UInt { UInt(bitPattern: pointer) }

    /// What a task that has not ended is doing, as far as its status tells.
    enum Wait: Equatable {
        /// It runs on a thread, or is queued on an executor: it goes on without being resumed.
        case underway
        /// It waits for the task at this address to end.
        case task(UInt)
        case continuation
        case taskGroup
        /// Its status names no dependency the harness can read.
        case unknown
    }

    /// What the task is doing; read while it cannot end. Its dependency record is read through
    /// `cshim_read_memory`, as the task may go on (and let the record go) meanwhile.
    var wait: Wait {
        let flags = statusFlags
        if flags & (Self.isRunningFlag | Self.isEnqueuedFlag) != 0 { return .underway }
        guard flags & Self.hasDependencyFlag != 0 else { return .unknown }
        let record = pointer.load(fromByteOffset: Offset.statusRecord, as: UInt.self)
        let read = withUnsafeTemporaryAllocation(
            byteCount: Offset.dependencyKind + MemoryLayout<UInt32>.size,
            alignment: MemoryLayout<UInt>.alignment
        ) { buffer -> (kind: UInt8, dependentOn: UInt, dependency: UInt32)? in
            guard cshim_read_memory(UnsafeRawPointer(bitPattern: record), buffer.baseAddress, buffer.count) == 0 else {
                return nil
            }
            return (
                buffer.load(fromByteOffset: Offset.recordKind, as: UInt8.self),
                buffer.load(fromByteOffset: Offset.dependentOn, as: UInt.self),
                buffer.load(fromByteOffset: Offset.dependencyKind, as: UInt32.self)
            )
        }
        guard let read, read.kind == Self.dependencyRecordKind else { return .unknown }
        switch DependencyKind(rawValue: read.dependency) {
        case .waitingOnTask: return .task(read.dependentOn)
        case .waitingOnContinuation: return .continuation
        case .waitingOnTaskGroup: return .taskGroup
        case .enqueuedOnExecutor: return .underway
        case nil: return .unknown
        }
    }

    /// Where the suspended task goes on, as the runtime keeps it: its resume function and
    /// async context. It changes each time the task runs and suspends again.
    var resumeState: ResumeState {
        ResumeState(
            function: pointer.load(fromByteOffset: Offset.resumeFunction, as: UInt.self),
            context: pointer.load(fromByteOffset: Offset.resumeContext, as: UInt.self)
        )
    }

    /// A task's resume function and async context (``resumeState``).
    struct ResumeState: Equatable {
        let function: UInt
        let context: UInt
    }

    /// The entry points of the resume functions of the suspended task's async frames,
    /// innermost first: where it goes on once resumed, then where each caller goes on.
    /// Read only while the task is suspended. The frames are read through
    /// `cshim_read_memory`, and the walk stops at the first context that is misaligned or
    /// not readable: a context the runtime has not linked, or has let go, ends the list
    /// rather than the process.
    var resumePoints: [UInt] {
        var points = [UInt(bitPattern: pointer.load(fromByteOffset: Offset.resumeFunction, as: UnsafeRawPointer?.self))]
        var context = pointer.load(fromByteOffset: Offset.resumeContext, as: UInt.self)
        while context != 0, context % UInt(MemoryLayout<UInt>.alignment) == 0, points.count < 64 {
            let header = withUnsafeTemporaryAllocation(
                byteCount: Offset.contextResumeParent + MemoryLayout<UInt>.size,
                alignment: MemoryLayout<UInt>.alignment
            ) { buffer -> (parent: UInt, resumeParent: UInt)? in
                guard cshim_read_memory(UnsafeRawPointer(bitPattern: context), buffer.baseAddress, buffer.count) == 0
                else { return nil }
                return (
                    buffer.load(fromByteOffset: Offset.contextParent, as: UInt.self),
                    buffer.load(fromByteOffset: Offset.contextResumeParent, as: UInt.self)
                )
            }
            guard let header else { break }
            points.append(header.resumeParent)
            context = header.parent
        }
        return points.filter { $0 != 0 }
    }
}
