import CIdentityWatch
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("ProcessHooks needs dlsym")
#endif
import CShim
import Primitives
import Synchronization

/// Every hook and static the harness keeps for the whole process, each with why it cannot
/// belong to one execution. The engine's are installed here; the others are listed where
/// they live.
///
/// Installed here, by every execution (``installForExecutions()``), once per process:
/// - The crash reporter (`cshim_install_crash_reporter`, `CShim.c`): handlers for SIGILL,
///   SIGTRAP, SIGSEGV, SIGBUS, SIGFPE and SIGABRT on an alternate signal stack
///   (`sigaltstack`, one per thread, freed by a process-wide key's destructor). A signal's
///   handler belongs to the process; the schedule it prints is the crashing thread's own.
/// - ``GlobalEnqueueHook``: the runtime has one `swift_task_enqueueGlobal_hook` per process;
///   it routes only the jobs of the execution's own threads, so parallel tests are safe.
///
/// Installed here, only in an isolated child that runs one exploration:
/// - ``ProcessExecutors``: the runtime creates the default and main executors once per
///   process, from one factory; `MainActor` and delayed jobs are seen nowhere else.
///
/// Kept elsewhere:
/// - The stalled-thread stack capture (`cshim_allow_stack_capture`, `CShim.c`): a handler for
///   one real-time signal, which a signal's handler is for the whole process.
/// - `ResumePointSymbols.places` and `.images`: a cache of symbolicated code addresses and
///   the process's images, which mean the same in the whole process.
/// - `HarnessEnvironment`'s state and its `atexit` (replay matching): `HARNESS_REPLAY` names
///   one token for the whole test run, which must fit some scenario by the process's end.
/// - `CampaignSummary.entries` and its `atexit`: the summary covers every exploration of the
///   test run, written once as the process ends.
/// - `StressTurns.state`: stress tests take turns across the process, since they load every
///   CPU.
/// - `RecordStorage.spare`: the trace and decision arrays of hosts whose executions are over.
///   Each exploration makes hosts of its own, and a test run's explorations follow one another,
///   so arrays kept for the process spare the next exploration's first executions growing them.
/// - `StressIteration.currentTask` (a task-local) and ``Execution/current`` (the seam's
///   thread-local controller): who runs the calling thread or task, asked from code that is
///   handed no context.
enum ProcessHooks {
    /// Installs what every execution needs, once per process: the crash reporter and the
    /// global enqueue hook.
    static func installForExecutions() {
        cshim_install_crash_reporter()
        GlobalEnqueueHook.install()
        _ = threadIdentityHandlerInstalled
    }

    /// The thread-identity watch's handler (``ThreadIdentityWatch``), installed once per process.
    private static let threadIdentityHandlerInstalled: Void = cshim_identity_set_handler(threadIdentityUsed)
}

/// The thread-identity watch's handler: tells the execution of the calling coroutine, if any,
/// which ends it.
private func threadIdentityUsed(_ function: cshim_identity_function, _ frame: UnsafeMutableRawPointer?) {
    Execution.current?.usedThreadIdentity(ThreadIdentityFunction(function), returnAddress: UInt(bitPattern: frame))
}

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
            guard !ProcessExecutors.areTaken, let services = ProcessExecutors.servicesOfCallingThread() else {
                return enqueue(job)
            }
            services.enqueue(job, onMainActor: false)
        }
    }()
}

/// The process's default (global) and main executors, taken over by the harness in the
/// child process of an isolated exploration, where nothing else runs.
///
/// A job enqueued from one of the execution's threads goes to the execution's
/// ``AsyncServices``: so unstructured `Task {}` and `Task.detached` tasks, `Task.yield`, and
/// tasks resumed after an `await` run under the harness, their `Task.sleep`s on the system
/// clocks wait on its virtual clock, and `MainActor` jobs run on a lane of their own, one at
/// a time. A job enqueued from any other thread (the test runner's) goes to the platform's
/// executors, as before.
///
/// Why the executor factory: the runtime's enqueue hooks see no `MainActor` job and no
/// delayed job (``GlobalEnqueueHook`` sees the rest), and a task executor preference is not
/// inherited by unstructured tasks. The factory sees every job, but it is process-wide, and
/// the platform's main executor must not run a `MainActor` job while the harness's main
/// lane runs another: that is why it is taken over only in a child process that runs one
/// exploration.
enum ProcessExecutors {
    private static let taken = Atomic<Bool>(false)

    /// Whether the harness owns the process's executors.
    static var areTaken: Bool { taken.load(ordering: .acquiring) }

    /// Takes the process's executors over, once; call before the first execution, while no
    /// other thread enqueues work (the runtime reads them without a lock).
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    static func takeOver() {
        guard !taken.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = HarnessExecutors.platform
        _createExecutors(factory: HarnessExecutors.self)
    }

    /// The task executor of the execution that runs the calling thread, if any.
    static func servicesOfCallingThread() -> AsyncServices<Execution>? {
        Execution.current?.services()
    }
}

/// The factory ``ProcessExecutors/takeOver()`` installs.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
private enum HarnessExecutors: ExecutorFactory {
    /// The platform's executors, read before the factory replaces them.
    static let platform = (main: MainActor.executor, global: Task.defaultExecutor)

    static let mainExecutor: any MainExecutor = RoutingMainExecutor(platform: platform.main)
    static let defaultExecutor: any TaskExecutor = RoutingDefaultExecutor(platform: platform.global)
}

/// The global executor while the harness owns it: see ``ProcessExecutors``.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
private final class RoutingDefaultExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    private let platform: any TaskExecutor

    init(platform: any TaskExecutor) {
        self.platform = platform
    }

    func enqueue(_ job: consuming ExecutorJob) {
        guard let services = ProcessExecutors.servicesOfCallingThread() else { return platform.enqueue(job) }
        services.enqueue(UnownedJob(job), onMainActor: false)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        guard let services = ProcessExecutors.servicesOfCallingThread() else {
            return platformScheduling.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
        }
        services.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        guard let services = ProcessExecutors.servicesOfCallingThread() else {
            return platformScheduling.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
        }
        services.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
    }

    private var platformScheduling: any SchedulingExecutor {
        guard let scheduling = platform as? any SchedulingExecutor else {
            preconditionFailure("the platform's global executor (\(type(of: platform))) schedules no delayed jobs")
        }
        return scheduling
    }
}

/// The main executor while the harness owns it: see ``ProcessExecutors``.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
private final class RoutingMainExecutor: MainExecutor, @unchecked Sendable {
    private let platform: any MainExecutor

    init(platform: any MainExecutor) {
        self.platform = platform
    }

    func enqueue(_ job: consuming ExecutorJob) {
        guard let services = ProcessExecutors.servicesOfCallingThread() else { return platform.enqueue(job) }
        services.enqueue(UnownedJob(job), onMainActor: true)
    }

    func run() throws {
        try platform.run()
    }

    func stop() {
        platform.stop()
    }
}
