import CShim
import Synchronization

/// What one exploration does, from any thread: the counters of its workers
/// (``ActivityCounter``), and the CPU time of a thread that computes without taking steps.
/// How an isolated child tells its parent it is alive.
final class ExplorationActivity: Sendable {
    /// One counter per worker; workers past the last share them, round the list.
    private let counters = (0..<8).map { _ in ActivityCounter() }
    /// The OS thread (its system ID) in ``whileComputing(_:)``, 0 when none is.
    private let computingThread = Atomic<UInt64>(0)

    /// The counter the executions of worker `worker` (from 0) count on.
    func counter(forWorker worker: Int) -> ActivityCounter {
        counters[worker % counters.count]
    }

    /// The workers' signs of life, and the CPU time (in milliseconds) of a thread in
    /// ``whileComputing(_:)``: it changes whenever the exploration is alive.
    var signsOfLife: Int {
        let thread = computingThread.load(ordering: .relaxed)
        let cpu = thread == 0 ? nil : ThreadActivity.read(systemID: thread)?.cpuTime
        return counters.reduce(Int(cpu?.wholeMilliseconds ?? 0)) { $0 &+ $1.signsOfLife }
    }

    /// Runs `body`, work of the calling thread that takes no step (symbolicating a failure's
    /// frames for its report, which on a loaded machine can take longer than an isolated
    /// child's silence is allowed to last): the CPU time it uses meanwhile is a sign of life.
    func whileComputing<Result>(_ body: () throws -> Result) rethrows -> Result {
        computingThread.store(cshim_current_thread_system_id(), ordering: .relaxed)
        defer { computingThread.store(0, ordering: .relaxed) }
        return try body()
    }
}
