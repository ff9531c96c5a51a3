#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("GlobalEnqueueWatch needs dlsym")
#endif
import Primitives

/// Reports, in-process, the jobs an execution's threads send to the global executor, which
/// the harness does not control there: the first job of a `Task {}` or `Task.detached`
/// started in the scenario, or of a task resumed outside the harness's executor. The job
/// still runs where the runtime sends it; the execution fails at its next decision, with
/// what to do instead.
///
/// It wraps the runtime's `swift_task_enqueueGlobal_hook`, which forwards every job to the
/// runtime as before; it sees nothing of `MainActor` jobs, delayed jobs or jobs for a custom
/// executor, and it stands aside when the harness owns the process's executors
/// (``ProcessExecutors``), which then run such jobs under the harness.
enum GlobalEnqueueWatch {
    private typealias Enqueue = @convention(thin) (UnownedJob) -> Void
    private typealias Hook = @convention(thin) (UnownedJob, Enqueue) -> Void

    /// Installs the watch, once per process.
    static func install() {
        _ = installed
    }

    private static let installed: Void = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return }
        let hook = symbol.assumingMemoryBound(to: Hook?.self)
        guard hook.pointee == nil else { return }
        hook.pointee = { job, enqueue in
            if !ProcessExecutors.areTaken, let execution = Seam.currentController as? Execution {
                execution.noteJobSentToGlobalExecutor()
            }
            enqueue(job)
        }
    }()
}
