#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("GlobalEnqueueHook needs dlsym")
#endif
import Primitives

/// In the test's own process, sends the jobs an execution's threads enqueue on the global
/// executor to the execution's ``AsyncServices`` instead: the first job of a `Task {}` or
/// `Task.detached` started in the scenario, the jobs such tasks enqueue as they go on, and
/// the runtime's own (a `Task.sleep` wakes its task through one). Jobs enqueued from every
/// other thread — parallel tests' — go to the global executor as before, so unlike the
/// executor factory (``ProcessExecutors``) the hook is safe beside parallel tests.
///
/// It wraps the runtime's `swift_task_enqueueGlobal_hook`. It sees no `MainActor` job (those
/// run under the harness only in an isolated child; in-process, a task that hops to the
/// main actor comes back from a thread the harness does not control, which fails the
/// execution) and no job for a custom executor, and it stands aside when the harness owns
/// the process's executors.
enum GlobalEnqueueHook {
    private typealias Enqueue = @convention(thin) (UnownedJob) -> Void
    private typealias Hook = @convention(thin) (UnownedJob, Enqueue) -> Void

    /// Installs the hook, once per process.
    static func install() {
        _ = installed
    }

    private static let installed: Void = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return }
        let hook = symbol.assumingMemoryBound(to: Hook?.self)
        guard hook.pointee == nil else { return }
        hook.pointee = { job, enqueue in
            guard !ProcessExecutors.areTaken, let services = ProcessExecutors.servicesOfCallingThread() else { return enqueue(job) }
            services.enqueue(job, onMainActor: false)
        }
    }()
}
