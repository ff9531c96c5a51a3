import CShim
import Primitives
import Synchronization

/// How the thread that started an execution watches it run: which thread runs, the OS
/// thread each runs on, and whether the running one stalled (``StallWatch``).
final class ExecutionWatch: @unchecked Sendable {
    /// A thread that stalled, with what its OS thread showed.
    struct Stalled {
        let thread: Int
        let stall: StallWatch.Stall
        /// Its stack, innermost frame first; `nil` when it could not be read.
        let frames: [String]?
    }

    private let runningThread = Atomic<Int>(0)
    /// Stored (releasing) by every thread as it leaves the harness for its own code, and
    /// loaded (acquiring) by the thread that declares a stall before it reads or writes the
    /// execution's state: so that state is handed to it like a step is handed from thread to
    /// thread. Without it ThreadSanitizer reported the stall's write of the failure as racing
    /// with the stalled thread's last step.
    private let leftHarness = Atomic<Int>(0)
    /// The OS thread each thread on an OS thread of its own runs on, and thread 0's (the
    /// host of every coroutine, which notes none), to read a stalled thread's state, CPU
    /// time and stack. Guarded by a pthread mutex (new threads record theirs at once): a
    /// contended `Synchronization.Mutex` hands over where ThreadSanitizer cannot see it, and
    /// it reported these writes as racing.
    private let threadHandlesMutex = SeamMutex()
    /// By thread number; room for a small scenario's threads from the start, so that
    /// noting them allocates nothing more. Touched only under the mutex: exempt from dynamic
    /// exclusivity checking, as ``DirectlyLocked``'s value is.
    @exclusivity(unchecked) private var threadHandles: [(handle: UInt, systemID: UInt64)?]

    init() {
        threadHandles = []
        threadHandles.reserveCapacity(Self.expectedThreads)
    }

    /// Readies the watch for the next execution, its storage kept: no thread is known to run.
    /// The OS threads noted are forgotten as thread 0 starts again (``noteStarted(_:)``), under
    /// the lock that notes it, not under one more lock here: until then a stall check reads
    /// thread 0's OS thread of the last execution (the runner's own, for a restarted one), in
    /// the moment before the execution's first step, which no stall is declared in.
    /// Call once nothing watches it.
    func reset() {
        runningThread.store(0, ordering: .relaxed)
        leftHarness.store(0, ordering: .relaxed)
    }

    /// The threads an execution is given room for at its start.
    private static var expectedThreads: Int { 8 }

    /// `thread` is about to perform an operation: it is the one that runs.
    func noteRunning(_ thread: Int) {
        runningThread.store(thread, ordering: .relaxed)
    }

    /// The calling thread leaves the harness for its own code.
    func noteLeavingHarness() {
        leftHarness.store(0, ordering: .releasing)
    }

    /// `thread` started on the calling OS thread: thread 0, or a thread on an OS thread of its
    /// own (a pooled one, which an earlier thread may have run on). A coroutine after thread 0
    /// runs on thread 0's OS thread, its host, and is not noted.
    func noteStarted(_ thread: Int) {
        let osThread = (handle: cshim_current_thread_handle(), systemID: cshim_current_thread_system_id())
        threadHandlesMutex.withLockDirectly {
            // Thread 0 starts an execution: the threads of the last one on this watch are gone.
            if thread == 0 { threadHandles.empty() }
            while threadHandles.count <= thread { threadHandles.append(nil) }
            threadHandles[thread] = osThread
        }
    }

    /// Waits for `backend` to finish; returns the stall, once the running thread, taking no
    /// step counted on `activity`, has been blocked or busy for `timeout` (checked a few
    /// times a second, so the stall is reported on time; ``checkForStall(_:activity:after:)``).
    /// Once it returns a stall, the caller may read and write the execution's state.
    func awaitEnd(of backend: any HandoffBackend, activity: ActivityCounter, timeout: Duration) -> Stalled? {
        let slice = Self.checkInterval(timeout)
        let start = ContinuousClock.now
        var watch = StallWatch(timeout: timeout)
        while !backend.awaitFinish(timeout: slice) {
            if let stalled = checkForStall(&watch, activity: activity, after: ContinuousClock.now - start) {
                return stalled
            }
        }
        return nil
    }

    /// How often a thread that watches for a stall of `timeout` checks: a few times a second.
    static func checkInterval(_ timeout: Duration) -> Duration {
        min(timeout, .milliseconds(250))
    }

    /// Checks once, `elapsed` into the execution, whether the running thread has been
    /// blocked or busy without a step counted on `activity` for `watch`'s timeout, with what
    /// earlier checks saw in `watch`; returns the stall if so. A check that finds the thread
    /// runnable counts as a sign of life for an isolated child's heartbeat. Once it returns a
    /// stall, the caller may read the execution's state.
    func checkForStall(_ watch: inout StallWatch, activity: ActivityCounter, after elapsed: Duration) -> Stalled? {
        let thread = runningThread.load(ordering: .relaxed)
        let osThread = threadHandlesMutex.withLockDirectly {
            // A thread not noted is a coroutine, on thread 0's OS thread: one on an OS thread
            // of its own runs only once it noted it.
            (threadHandles.indices.contains(thread) ? threadHandles[thread] : nil) ?? threadHandles.first ?? nil
        }
        let verdict = watch.check(
            steps: activity.steps,
            thread: thread,
            activity: osThread.flatMap { ThreadActivity.read(systemID: $0.systemID) },
            now: elapsed
        )
        switch verdict {
        case .progressed, .waiting:
            return nil
        case .runnable:
            activity.noteRunnable()
            return nil
        case .stalled(let stall):
            _ = leftHarness.load(ordering: .acquiring)
            let frames = osThread.flatMap { StallDiagnosis.frames(ofThread: $0.handle) }
            return Stalled(thread: thread, stall: stall, frames: frames)
        }
    }
}
