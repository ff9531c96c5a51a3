import Primitives

/// What the executions one worker of an exploration runs, one after another, share and
/// reuse; used by one thread at a time.
final class ExecutionHost: @unchecked Sendable {
    /// The OS threads the executions run on, reused from one to the next; closed with
    /// ``close()``.
    let threadPool = SeamThreadPool()
    /// The CPU the executions' threads are pinned to, each OS thread once; `nil`: none.
    var cpu: Int32?
    /// The worker of the exploration that runs the executions, from 0: which of the
    /// exploration's activity counters they count on.
    let worker: Int
    /// The stacks of scenario threads run as coroutines, reused from one execution to the
    /// next; `nil` once an execution needed OS threads (``moveToOSThreads()``).
    private(set) var coroutineStacks: CoroutineStacks? = CoroutineStacks()
    /// What the executions share, made by the first (``setting(_:)``).
    private var setting: ExecutionSetting?
    /// Where the executions record their steps, one after another; made by the first.
    private var record: ScheduleRecord?
    /// The storage of the executions' steps and decisions, each handing it to the next: left
    /// by an earlier host, and left for a later one on ``close()``.
    let recordStorage = RecordStorage.reused()
    /// The coroutine handoff the executions on a runner take turns with, with the limits it
    /// was made for; made by the first.
    private var handoff: (handoff: CoroutineHandoff, threads: Int, spins: UInt32)?
    /// The execution that ran last on the host's runner, which runs the next plan that shares
    /// its handoff (``Execution/run(_:on:reusing:)``).
    private var reusable: Execution?
    /// The texts that name the execution running (its token without steps, its crash text),
    /// made by the first.
    private var texts: ExecutionTexts?
    /// What stands for the execution's number in the texts' templates.
    private static let executionStandIn: UInt8 = 2

    /// A host whose executions run on `cpu`, or on no CPU in particular when `nil`, for
    /// worker `worker`.
    init(cpu: Int32? = nil, worker: Int = 0) {
        self.cpu = cpu
        self.worker = worker
    }

    /// Lets go of the last execution, ends the host's OS threads and leaves its record storage
    /// for a later host; call once, when its executions are over.
    func close() {
        reusable = nil
        threadPool.close()
        recordStorage.keepForReuse()
    }

    /// The setting of the host's executions: made by `make` on first use, and anew once they
    /// moved to OS threads.
    func setting(_ make: () -> ExecutionSetting) -> ExecutionSetting {
        if let setting { return setting }
        let made = make()
        setting = made
        return made
    }

    /// The host's executions run on OS threads from now on: no more coroutines.
    func moveToOSThreads() {
        coroutineStacks = nil
        setting = nil
    }

    /// The texts that name execution `index`, rewritten in place for each execution; `make`
    /// makes the token, the crash prefix and the crash suffix for an execution written as given.
    func texts(execution index: Int, _ make: (String) -> (token: String, crashPrefix: String, crashSuffix: String))
        -> ExecutionTexts
    {
        let texts: ExecutionTexts
        if let kept = self.texts {
            texts = kept
        } else {
            let made = make(String(UnicodeScalar(Self.executionStandIn)))
            texts = ExecutionTexts(
                token: made.token, crashPrefix: made.crashPrefix, crashSuffix: made.crashSuffix,
                standIn: Self.executionStandIn)
            // Stored once: storing the kept texts again retained and released them each time.
            self.texts = texts
        }
        texts.name(execution: index)
        return texts
    }

    /// The coroutine handoff for the next execution under `limits` on a runner, which runs its
    /// executions one after another (``CoroutineHandoff/reset()``): made on first use, and
    /// anew when the limits change; `nil` when the executions need OS threads, or this build
    /// switches no coroutines.
    func reusableHandoff(_ limits: ExecutionLimits) -> CoroutineHandoff? {
        guard let coroutineStacks else { return nil }
        if let handoff, handoff.threads == limits.maxThreads, handoff.spins == limits.spinsBeforeSleeping {
            return handoff.handoff
        }
        let made = makeCoroutineHandoff(
            threadCount: limits.maxThreads, spinsBeforeSleeping: limits.spinsBeforeSleeping,
            coroutineStacks: coroutineStacks, pool: threadPool)
        handoff = made.map { ($0, limits.maxThreads, limits.spinsBeforeSleeping) }
        return made
    }

    /// Runs `plan` on `runner` (``Execution/run(_:on:reusing:)``) on the execution that ran
    /// before it, when it can, and keeps the execution for the next; `nil` when the runner's
    /// watcher took the execution over. Call from the runner only.
    func run(_ plan: ExecutionPlan, on runner: ExecutionRunner) -> ExecutionRecord? {
        // Taken into a local, not accessed in place: a runner its watcher took over never gives
        // the execution back, and the next runner finds none.
        var reused = reusable.take()
        guard let record = Execution.run(plan, on: runner, reusing: &reused) else { return nil }
        reusable = reused
        return record
    }

    /// The record the executions take turns with, made on first use with room for
    /// `stepCapacity` bytes of steps, in `file` when given.
    func scheduleRecord(stepCapacity: Int, file: String?) -> ScheduleRecord {
        if let record { return record }
        do {
            let made = try ScheduleRecord(stepCapacity: stepCapacity, sharedFile: file)
            record = made
            return made
        } catch {
            let place = file.map { " in \($0)" } ?? ""
            preconditionFailure("the harness could not make its schedule record\(place): \(error)")
        }
    }
}
