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
/// check is not held, and the harness knows of it only what its jobs show.
struct RuntimeTask {
    private let pointer: UnsafeMutableRawPointer

    /// Offsets into `AsyncTask` and `AsyncContext`, 64-bit.
    private enum Offset {
        static let idLowBits = 36
        static let resumeFunction = 56
        static let resumeContext = 64
        static let statusFlags = 96
        static let contextParent = 0
        static let contextResumeParent = 8
    }

    /// The `IsComplete` flag of `ActiveTaskStatus`.
    private static let isCompleteFlag: UInt32 = 0x2000

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
        pointer.load(fromByteOffset: Offset.statusFlags, as: UInt32.self) & Self.isCompleteFlag != 0
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
