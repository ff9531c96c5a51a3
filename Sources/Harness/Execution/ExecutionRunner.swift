import CShim
import Primitives

/// A thread that runs executions one after another, each with its coroutines on the runner
/// itself (``Execution/run(_:on:)``): no other OS thread takes part in an execution
/// whose scenario threads are all coroutines, and none is woken or waited for between
/// executions. The thread that started it, its ``RunnerWatch``, watches the execution it runs
/// for a stall meanwhile, and takes a stalled one over: the runner, stuck in the code under
/// test, is left behind, as a stalled OS thread is.
final class ExecutionRunner: @unchecked Sendable {
    /// The execution running, as its watcher needs it.
    private struct Running {
        let execution: Execution
        /// Which run on the execution it is (``Execution/run``): the one whose end the
        /// watcher may claim.
        let run: Int
        let activity: ActivityCounter
        /// The runner's ``tag`` when the execution began.
        let tag: Int
        /// Counts the executions begun, to tell one from the next.
        let serial: Int
    }

    /// What the runner's work says its next execution is (its position in the exploration),
    /// told with a stalled execution's record to the watch's `ifStalled`; set by the runner.
    var tag = 0
    private let ifStalled: (_ record: ExecutionRecord, _ tag: Int) -> Void
    private let lock = SeamMutex()
    private var running: Running?
    private var begun = 0
    /// Whether the watcher took the runner's execution over, or the runner ended its work.
    private var stopped = false
    /// What the watcher saw of the execution it watches; touched by the watcher only.
    private var watched: (serial: Int, start: ContinuousClock.Instant, stall: StallWatch)?
    fileprivate var thread: SeamThread?

    fileprivate init(ifStalled: @escaping (_ record: ExecutionRecord, _ tag: Int) -> Void) {
        self.ifStalled = ifStalled
    }

    /// Run `run` of `execution` runs on the runner, counting its steps on `activity`; should it
    /// stall, the watcher hands its record to the watch's `ifStalled`, with the runner's ``tag``.
    func begin(_ execution: Execution, run: Int, activity: ActivityCounter) {
        lock.withLockDirectly {
            begun += 1
            running = Running(execution: execution, run: run, activity: activity, tag: tag, serial: begun)
        }
    }

    /// The execution begun last has ended on the runner.
    func end() {
        lock.withLockDirectly { running = nil }
    }

    /// The runner's work is over; returns whether the watcher still waited for it (it did
    /// not if it took the runner's execution over).
    fileprivate func stop() -> Bool {
        lock.withLockDirectly {
            defer { stopped = true }
            return !stopped
        }
    }

    /// Checks the running execution once for a stall of `timeout`
    /// (``ExecutionWatch/checkForStall(_:activity:after:)``); once it stalled, takes it over
    /// and hands its record on. Returns whether the runner's work was still going on then (the
    /// watcher no longer waits for it).
    fileprivate func takeOverIfStalled(timeout: Duration) -> Bool {
        guard let current = lock.withLockDirectly({ stopped ? nil : running }) else { return false }
        let now = ContinuousClock.now
        if watched?.serial != current.serial {
            watched = (current.serial, now, StallWatch(timeout: timeout))
        }
        guard var seen = watched else { return false }
        let stalled = current.execution.watch.checkForStall(
            &seen.stall, activity: current.activity, after: now - seen.start)
        watched = seen
        guard let stalled, current.execution.claim(.stalled, of: current.run) else { return false }
        let wasWorking = lock.withLockDirectly {
            defer {
                running = nil
                stopped = true
            }
            return !stopped
        }
        current.execution.noteStalled(stalled)
        ifStalled(current.execution.record(), current.tag)
        return wasWorking
    }
}

/// Starts ``ExecutionRunner``s and watches them from the thread that started them until their
/// work is over or they stalled.
final class RunnerWatch: @unchecked Sendable {
    private let parker: UnsafeMutablePointer<cshim_parker>
    private let lock = SeamMutex()
    private var runners: [ExecutionRunner] = []
    private var working = 0

    init() {
        parker = .allocate(capacity: 1)
        parker.initialize(to: cshim_parker())
    }

    deinit {
        parker.deallocate()
    }

    /// Starts a runner that does `work` on a thread of its own, pinned to `cpu` when given;
    /// the watcher hands the record of an execution of it that stalled to `ifStalled`, with
    /// the runner's ``ExecutionRunner/tag`` then.
    func start(
        cpu: Int32?,
        ifStalled: @escaping (_ record: ExecutionRecord, _ tag: Int) -> Void,
        _ work: @escaping @Sendable (ExecutionRunner) -> Void
    ) {
        let runner = ExecutionRunner(ifStalled: ifStalled)
        lock.withLockDirectly {
            runners.append(runner)
            working += 1
        }
        let started = Seam.spawnThread { [self] in
            if let cpu {
                _ = cshim_pin_current_thread_to_cpu(cpu)
            }
            work(runner)
            if runner.stop() {
                lock.withLockDirectly { working -= 1 }
                cshim_unpark(parker)
            }
        }
        switch started {
        case .success(let thread): runner.thread = thread
        case .failure(let error):
            preconditionFailure(
                "the exploration could not start a thread to run its executions (\(error)): has the process run out "
                    + "of threads?")
        }
    }

    /// Waits until every runner's work is over, or its execution stalled and was taken over,
    /// checking a few times a second for a stall of `stallTimeout`; joins the runners whose
    /// work is over.
    func awaitRunners(stallTimeout: Duration) {
        let interval = ExecutionWatch.checkInterval(stallTimeout)
        let nanoseconds = SeamInstant(nanoseconds: 0).advanced(by: interval).nanoseconds
        var abandoned: Set<ObjectIdentifier> = []
        while lock.withLockDirectly({ working > 0 }) {
            if cshim_park_with_timeout(parker, nanoseconds) { continue }
            for runner in lock.withLockDirectly({ runners }) where runner.takeOverIfStalled(timeout: stallTimeout) {
                abandoned.insert(ObjectIdentifier(runner))
                lock.withLockDirectly { working -= 1 }
            }
        }
        for runner in runners where !abandoned.contains(ObjectIdentifier(runner)) {
            do {
                try runner.thread?.join()
            } catch {
                preconditionFailure("joining a thread that ran executions failed: \(error)")
            }
        }
    }
}
