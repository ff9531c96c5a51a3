@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import Primitives
import Synchronization

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
    static func servicesOfCallingThread() -> AsyncServices? {
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
