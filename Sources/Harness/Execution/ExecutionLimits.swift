/// What bounds one execution (threads, steps) and how it waits (stall timeout, spinning,
/// the grace given to jobs from outside); ``Execution/Limits`` names it.
struct ExecutionLimits: Equatable {
    var maxThreads = 64
    var maxSteps = 20_000
    var spuriousWakeups = true
    /// How far ahead of the clock (nanoseconds) a deadline may fire while other work could
    /// still run; `nil` only when nothing else can, `UInt64.max` for any deadline.
    var earlyTimeoutWithin: UInt64? = nil
    var stallTimeout: Duration = .seconds(20)
    var spinsBeforeSleeping: UInt32 = 4_000
    /// The CPU every thread of the execution is pinned to, so that a handoff wakes a
    /// thread on the same CPU (about 6 µs on Linux, against 70 µs across CPUs).
    var cpu: Int32? = nil
    /// Lane threads that run the scenario's task jobs.
    var executorLanes = 2
    /// How long (real time) a stuck execution whose tasks wait on what a thread outside the
    /// harness may resume gives a job from outside to arrive, so that the escape is reported
    /// rather than the deadlock it leaves (``ForeignWakeup/possible``). Tasks that wait for
    /// each other get none; a task underway outside gets up to `stallTimeout`.
    var foreignJobGrace: Duration = .seconds(1)
    /// Whether the executor reads each task's whole async stack as a job begins and ends
    /// (``TaskJobPoints/stacks``): for the execution a report is drawn from, as it reads memory
    /// a system call at a time.
    var readsAsyncStacks = false
}
