import CShim
import Primitives

/// How control passes between the threads of an execution: the one piece of the scheduler
/// that depends on what a controlled thread is. Exactly one thread runs; it wakes the next
/// with ``resume(_:)`` and then waits in ``park(_:)`` until it is woken in turn.
///
/// ``FutexHandoff`` serves controlled threads that are OS threads (each parked on its own
/// futex, about 3 µs a switch when pinned to one CPU); ``CoroutineHandoff`` runs scenario
/// threads as coroutines on one host thread and composes a ``FutexHandoff`` for the
/// execution's OS threads. ``Execution`` knows backends only through this protocol.
protocol HandoffBackend: AnyObject {
    /// Waits until `thread` is resumed (at once if it already was).
    func park(_ thread: Int)
    /// Lets `thread` run.
    func resume(_ thread: Int)
    /// Waits until the execution ends (see ``finish()``) or `timeout` passes; returns
    /// whether it ended.
    func awaitFinish(timeout: Duration) -> Bool
    /// Ends the execution: wakes whoever waits in ``awaitFinish(timeout:)`` or
    /// ``hostUntilFinished()``.
    func finish()
    /// Makes the calling thread the one that runs the execution's coroutines, in
    /// ``hostUntilFinished()``, instead of a thread of the pool; call before the first thread
    /// starts.
    func hostOnCallingThread()
    /// Runs the execution's coroutines on the calling thread (``hostOnCallingThread()``), and
    /// waits while an OS thread of it runs, until the execution ends; only waits for the end
    /// when every thread is an OS thread.
    func hostUntilFinished()
    /// Where the scenario's threads run when they are coroutines; `nil` when every thread
    /// is an OS thread of the pool.
    var coroutineHost: (any SeamThreadHost)? { get }
    /// Whether `thread` runs as a coroutine, not on an OS thread of its own.
    func runsAsCoroutine(_ thread: Int) -> Bool
    /// Ends the calling thread, `thread`, without returning: an OS thread exits, a coroutine
    /// runs its cleanup and gives the host to whatever runs next.
    func exit(_ thread: Int) -> Never
}

/// The backend of an execution of at most `threadCount` threads that spin
/// `spinsBeforeSleeping` times before sleeping: scenario threads run as coroutines on
/// stacks from `coroutineStacks` where this build can switch coroutines, on OS threads of
/// `pool` otherwise.
func makeHandoffBackend(
    threadCount: Int,
    spinsBeforeSleeping: UInt32,
    coroutineStacks: CoroutineStacks?,
    pool: SeamThreadPool
) -> any HandoffBackend {
    if let coroutineStacks,
        let handoff = makeCoroutineHandoff(
            threadCount: threadCount, spinsBeforeSleeping: spinsBeforeSleeping, coroutineStacks: coroutineStacks,
            pool: pool)
    {
        return handoff
    }
    return FutexHandoff(threadCount: threadCount, spinsBeforeSleeping: spinsBeforeSleeping)
}

/// A handoff that runs the scenario threads of an execution of at most `threadCount` threads
/// (spinning `spinsBeforeSleeping` times before sleeping) as coroutines on stacks from
/// `coroutineStacks`, its other threads on OS threads of `pool`; one runner may reuse it from
/// one execution to the next (``CoroutineHandoff/reset()``). `nil` where this build cannot
/// switch coroutines.
func makeCoroutineHandoff(
    threadCount: Int,
    spinsBeforeSleeping: UInt32,
    coroutineStacks: CoroutineStacks,
    pool: SeamThreadPool
) -> CoroutineHandoff? {
    guard cshim_coroutines_supported() else { return nil }
    let osThreads = FutexHandoff(threadCount: threadCount, spinsBeforeSleeping: spinsBeforeSleeping)
    return CoroutineHandoff(osThreads: osThreads, stacks: coroutineStacks, pool: pool)
}
