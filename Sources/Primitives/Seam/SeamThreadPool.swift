import CShim

/// Parked OS threads that run the bodies of controlled threads one after another, so that a
/// harness running thousands of short executions does not create and join an OS thread for
/// every controlled thread of every execution (about 30 µs each here).
///
/// A body run on the pool behaves as one run on a fresh thread as far as the seam can tell:
/// it starts with ``SeamController/threadDidStart(_:)`` and ends with
/// ``SeamController/threadWillExit(_:)``, with the seam's thread-local slot and the crash
/// report cleared after it, and ``SeamThread/join(file:line:)`` waits until it has ended.
/// A body that ends its thread (`pthread_exit`, cancellation) ends the pooled OS thread with
/// it; the pool starts another when needed and joins the dead one when it is closed.
///
/// Only for bodies the harness owns from start to join: a pooled thread must not be detached,
/// and a thread that may really be cancelled (an `IOThread`) must stay a fresh OS thread of
/// its own (``Seam/spawnThread(attributes:file:line:_:)``).
package final class SeamThreadPool: SeamThreadHost, @unchecked Sendable {
    private let workers = PoolWorkers()

    package init() {}

    /// Ends the pool: tells the idle threads to exit and joins them and the threads that
    /// ended on their own; a thread still running a body (one stalled outside the seam) is
    /// detached instead, and exits when its body ends. Call once, when no more bodies will
    /// be handed to the pool.
    package func close() {
        for (worker, state) in workers.close() {
            switch state {
            case .idle:
                worker.exit()
                join(worker)
            case .ended:
                join(worker)
            case .busy:
                let error = pthread_detach(worker.handle)
                precondition(error == 0, "SeamThreadPool: pthread_detach failed with error \(error)")
            }
        }
    }

    private func join(_ worker: PoolWorker) {
        let error = pthread_join(worker.handle, nil)
        precondition(error == 0, "SeamThreadPool: pthread_join failed with error \(error)")
    }

    package var runsCoroutines: Bool { false }

    /// Runs `body(argument)` on an idle pooled thread (started if there is none), inside
    /// `cshim_run_with_cleanup(cleanup, argument, body, argument)` as `cshim_thread_create`
    /// would. Returns the thread's handle, or `pthread_create`'s errno value.
    package func run(
        _ body: @convention(c) (UnsafeMutableRawPointer?) -> Void,
        cleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void,
        argument: UnsafeMutableRawPointer,
        as thread: SeamThreadID? = nil
    ) -> Result<pthread_t, SeamThreadError> {
        let worker: PoolWorker
        if let idle = workers.takeIdle() {
            worker = idle
        } else {
            worker = PoolWorker(workers: workers)
            var created = cshim_thread()
            let retained = Unmanaged.passRetained(worker).toOpaque()
            let error = cshim_thread_create(&created, nil, poolWorkerMain, poolWorkerEnded, retained)
            guard error == 0 else {
                Unmanaged<PoolWorker>.fromOpaque(retained).release()
                return .failure(SeamThreadError(operation: "pthread_create", code: error))
            }
            worker.handle = created.handle
            workers.addBusy(worker)
        }
        worker.job = PoolJob(body: body, cleanup: cleanup, argument: argument)
        cshim_unpark(worker.parker)
        return .success(worker.handle)
    }
}

/// A body handed to a pooled thread.
private struct PoolJob {
    let body: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let cleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let argument: UnsafeMutableRawPointer
}

/// One pooled OS thread: parked until it is handed a job (or told to exit, with no job).
private final class PoolWorker {
    let parker: UnsafeMutablePointer<cshim_parker>
    let workers: PoolWorkers
    var handle = pthread_t()
    /// Written by the thread that hands the job over before it unparks the worker, read by
    /// the worker after: the parker orders the two.
    var job: PoolJob?

    init(workers: PoolWorkers) {
        self.workers = workers
        parker = .allocate(capacity: 1)
        parker.initialize(to: cshim_parker())
    }

    deinit {
        parker.deallocate()
    }

    /// The thread's loop: runs each job it is handed until it is told to exit or a job ends
    /// the thread. Holds no reference of its own in its frames, which a job that ends the
    /// thread would unwind without releasing.
    func runJobs() {
        while true {
            cshim_park(parker, 0)
            guard let job else { return }
            self.job = nil
            cshim_run_with_cleanup(job.cleanup, job.argument, job.body, job.argument)
            // A fresh thread starts without a crash report; so does the next job.
            cshim_set_thread_crash_report(nil)
            guard workers.returnIdle(self) else { return }
        }
    }

    /// Wakes the parked worker with no job: it exits.
    func exit() {
        job = nil
        cshim_unpark(parker)
    }
}

/// What a pooled thread is doing.
private enum PoolWorkerState {
    /// Parked, waiting for a job.
    case idle
    /// Handed a job that has not ended yet.
    case busy
    /// Exited: a job ended the thread.
    case ended
}

/// The pool's threads and their states, under a pthread mutex (taken by controlled threads,
/// so not a seam mutex's controlled path).
private final class PoolWorkers: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var idle: [PoolWorker] = []
    private var all: [(worker: PoolWorker, state: PoolWorkerState)] = []
    private var closed = false

    func takeIdle() -> PoolWorker? {
        mutex.withLockDirectly {
            guard let worker = idle.popLast() else { return nil }
            setState(of: worker, .busy)
            return worker
        }
    }

    func addBusy(_ worker: PoolWorker) {
        mutex.withLockDirectly { all.append((worker, .busy)) }
    }

    /// Puts a worker whose job ended back among the idle ones; false once the pool closed.
    func returnIdle(_ worker: PoolWorker) -> Bool {
        mutex.withLockDirectly {
            guard !closed else { return false }
            setState(of: worker, .idle)
            idle.append(worker)
            return true
        }
    }

    /// Notes that a worker's thread is exiting.
    func ended(_ worker: PoolWorker) {
        mutex.withLockDirectly {
            if !closed { setState(of: worker, .ended) }
        }
    }

    func close() -> [(worker: PoolWorker, state: PoolWorkerState)] {
        mutex.withLockDirectly {
            closed = true
            idle = []
            defer { all = [] }
            return all
        }
    }

    private func setState(of worker: PoolWorker, _ state: PoolWorkerState) {
        guard let index = all.firstIndex(where: { $0.worker === worker }) else {
            preconditionFailure("SeamThreadPool: a worker the pool does not know")
        }
        all[index].state = state
    }
}

/// A pooled thread's entry point.
private func poolWorkerMain(_ argument: UnsafeMutableRawPointer?) {
    Unmanaged<PoolWorker>.fromOpaque(argument!)._withUnsafeGuaranteedRef { $0.runJobs() }
}

/// Notes that a pooled thread ends and releases its reference to its worker.
private func poolWorkerEnded(_ argument: UnsafeMutableRawPointer?) {
    let worker = Unmanaged<PoolWorker>.fromOpaque(argument!).takeRetainedValue()
    worker.workers.ended(worker)
}

/// Where a harness runs the bodies of threads it controls instead of on fresh OS threads: a
/// ``SeamThreadPool`` of parked OS threads, or coroutines.
package protocol SeamThreadHost: AnyObject, Sendable {
    /// Whether bodies run as coroutines that share an OS thread. Such a host keeps the seam
    /// active (`cshim_seam_activate`) for as long as it runs them, and their threads do not
    /// activate it each: a count every thread of every worker wrote as it started and ended
    /// was a cache line the workers' cores took from each other at every seam operation.
    var runsCoroutines: Bool { get }

    /// Runs `body(argument)`, followed by `cleanup(argument)` when it returns or its thread
    /// ends, as thread `thread` of its controller. Returns the OS thread that runs it.
    func run(
        _ body: @convention(c) (UnsafeMutableRawPointer?) -> Void,
        cleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void,
        argument: UnsafeMutableRawPointer,
        as thread: SeamThreadID?
    ) -> Result<pthread_t, SeamThreadError>
}

/// A controller that runs the threads its threads spawn with a closure (and no attributes)
/// on a ``SeamThreadHost`` of its own.
package protocol SeamThreadHosting: AnyObject {
    /// The host for threads spawned now, or `nil` for fresh OS threads.
    var hostForSpawnedThreads: (any SeamThreadHost)? { get }
}
