import CShim
import Synchronization

/// Counts the steps of one exploration, from any thread: how a stall is told
/// from slow progress, and how an isolated child tells its parent it is alive.
final class ActivityCounter: Sendable {
    private let counter = Atomic<Int>(0)
    private let runnableChecks = Atomic<Int>(0)
    /// The OS thread (its system ID) in ``whileComputing(_:)``, 0 when none is.
    private let computingThread = Atomic<UInt64>(0)

    /// Every step counted so far; it changes whenever the exploration makes progress.
    var steps: Int { counter.load(ordering: .relaxed) }

    /// Steps, stall checks that found the running thread runnable (computing, or waiting for
    /// a CPU on a busy machine), and the CPU time (in milliseconds) of a thread in
    /// ``whileComputing(_:)``: it changes whenever the exploration is alive.
    var signsOfLife: Int {
        let thread = computingThread.load(ordering: .relaxed)
        let cpu = thread == 0 ? nil : ThreadActivity.read(systemID: thread)?.cpuTime
        return steps &+ runnableChecks.load(ordering: .relaxed) &+ Int(cpu?.wholeMilliseconds ?? 0)
    }

    /// Runs `body`, work of the calling thread that takes no step (symbolicating a failure's
    /// frames for its report, which on a loaded machine can take longer than an isolated
    /// child's silence is allowed to last): the CPU time it uses meanwhile is a sign of life.
    func whileComputing<Result>(_ body: () throws -> Result) rethrows -> Result {
        computingThread.store(cshim_current_thread_system_id(), ordering: .relaxed)
        defer { computingThread.store(0, ordering: .relaxed) }
        return try body()
    }

    /// Counts a step.
    func noteStep() {
        counter.add(1, ordering: .relaxed)
    }

    /// Counts a stall check that found the running thread runnable.
    func noteRunnable() {
        runnableChecks.add(1, ordering: .relaxed)
    }
}
