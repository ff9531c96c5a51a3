import CShim
import Primitives

extension Explorer {
    /// Runs the first `planned` schedules of `shard` on `workers` threads, each with an
    /// ``ExecutionHost`` of its own pinned to a CPU of its own (where the platform says which
    /// it may use), and returns their tally: the one a single thread running them in order
    /// gives, as each schedule of a strategy whose schedules are independent depends only on
    /// the seed and its index. Workers take positions in order; once one fails, none takes a
    /// position after it, and the outcomes of those already run are dropped. `noteProgress`
    /// is called with the count tallied after each schedule, by one worker at a time. The
    /// workers take `cpus` in turn: the CPUs the exploring thread could use before it was
    /// pinned to one (``onOneCPU(_:)``); `nil` where the platform does not say.
    func runOnWorkers(
        _ workers: Int,
        cpus: [Int32]?,
        strategy: Strategy,
        seed: UInt64,
        naming: ScheduleNaming,
        shard: ScheduleShard,
        planned: Int,
        noteProgress: @escaping (Int) -> Void
    ) -> ScheduleTally {
        let queue = ScheduleQueue(
            explorer: self, naming: naming, shard: shard, planned: planned, noteProgress: noteProgress)
        let watch = RunnerWatch()
        for (worker, cpu) in Self.workerCPUs(workers, among: cpus).enumerated() {
            let host = ExecutionHost(cpu: cpu, worker: worker)
            watch.start(cpu: cpu, ifStalled: queue.deliverStalled) { runner in
                queue.work(on: host, runner: runner, scheduler: strategy.makeScheduler(seed: seed))
            }
        }
        watch.awaitRunners(stallTimeout: options.stallTimeout)
        return queue.finishedTally()
    }

    /// The CPU each of `workers` workers runs on: `allowed` in turn; `nil` each where the
    /// platform does not say.
    private static func workerCPUs(_ workers: Int, among allowed: [Int32]?) -> [Int32?] {
        guard let allowed, !allowed.isEmpty else { return Array(repeating: nil, count: workers) }
        return (0..<workers).map { allowed[$0 % allowed.count] }
    }

    /// Runs `body` on the calling thread pinned to one of the CPUs it may use (the one it
    /// runs on, when it may), passing that CPU and the CPUs it could use before (for workers
    /// to spread over), and then lets the thread run where it could before. So the thread is
    /// pinned once for all its executions, not once for each. Passes `nil` for the CPU, and
    /// pins nothing, where the platform does not say which CPUs a thread may use or cannot
    /// pin one.
    static func onOneCPU<Result>(_ body: (_ cpu: Int32?, _ allowed: [Int32]?) -> Result) -> Result {
        guard let allowed = allowedCPUs() else { return body(nil, nil) }
        let current = cshim_current_cpu()
        let cpu = allowed.contains(current) ? current : allowed[0]
        guard cshim_pin_current_thread_to_cpu(cpu) == 0 else { return body(nil, allowed) }
        defer { _ = cshim_set_current_thread_cpus(allowed, Int32(allowed.count)) }
        return body(cpu, allowed)
    }

    /// The CPUs the calling thread may run on, in increasing order; `nil` where the platform
    /// does not say.
    private static func allowedCPUs() -> [Int32]? {
        var allowed = [Int32](repeating: 0, count: 1_024)
        let count = Int(cshim_allowed_cpus(&allowed, Int32(allowed.count)))
        return count > 0 ? Array(allowed.prefix(count)) : nil
    }
}

/// The positions of an exploration's schedules that its workers take, and the tally of their
/// outcomes in position order; shared by the workers under one lock.
private final class ScheduleQueue: @unchecked Sendable {
    private let explorer: Explorer
    private let naming: ScheduleNaming
    private let shard: ScheduleShard
    private let planned: Int
    private let noteProgress: (Int) -> Void
    private let lock = SeamMutex()
    /// The next position a worker takes.
    private var next = 0
    /// The lowest position that failed so far; no worker takes one after it.
    private var stop = Int.max
    /// Outcomes that arrived before one of a lower position, by position.
    private var pending: [Int: ScheduleOutcome] = [:]
    private var tally: ScheduleTally

    init(
        explorer: Explorer, naming: ScheduleNaming, shard: ScheduleShard, planned: Int,
        noteProgress: @escaping (Int) -> Void
    ) {
        self.explorer = explorer
        self.naming = naming
        self.shard = shard
        self.planned = planned
        self.noteProgress = noteProgress
        tally = ScheduleTally(budget: planned)
    }

    /// Runs schedules on `runner`, the calling thread, with `host` and `scheduler` until none
    /// is left to take or the runner's watcher took an execution over, then closes the host.
    func work(on host: ExecutionHost, runner: ExecutionRunner, scheduler: any SchedulingStrategy) {
        defer { host.close() }
        let scheduler = StrategyCell(scheduler)
        while let position = take() {
            let execution = shard.schedule(at: position)
            guard scheduler.value.beginExecution(execution) else {
                preconditionFailure("a strategy whose schedules are independent had none for execution \(execution)")
            }
            runner.tag = position
            guard
                let record = explorer.execute(scheduler, naming: naming, execution: execution, on: host, runner: runner)
            else { return }
            deliver(position, record)
        }
    }

    /// Adds the record of the execution at `position`, which stalled; called by the watcher
    /// that took it over.
    func deliverStalled(_ record: ExecutionRecord, position: Int) {
        deliver(position, record)
    }

    /// The tally, once every worker has ended.
    func finishedTally() -> ScheduleTally {
        lock.withLockDirectly { tally }
    }

    private func take() -> Int? {
        lock.withLockDirectly {
            guard next < planned, next <= stop else { return nil }
            next += 1
            return next - 1
        }
    }

    /// Adds the outcome of `record`, the execution at `position`, and tallies every outcome
    /// now in order.
    private func deliver(_ position: Int, _ record: ExecutionRecord) {
        let execution = shard.schedule(at: position)
        let outcome = ScheduleOutcome(execution: execution, record, keepsRecord: position == planned - 1)
        lock.withLockDirectly {
            if outcome.record?.failure != nil {
                stop = min(stop, position)
            }
            pending[position] = outcome
            while !tally.failed, let ready = pending.removeValue(forKey: tally.executed) {
                tally.add(ready)
                noteProgress(tally.executed)
            }
        }
    }
}
