/// A thread the scheduler may run next, and how.
struct Candidate: Hashable {
    /// The thread.
    let thread: Int
    /// Whether choosing it wakes it from a condition wait without a signal.
    let isSpuriousWake: Bool
}

/// Decides, at every scheduling point, which candidate runs next. Owned by one execution at
/// a time and used only by its running thread.
protocol SchedulingStrategy {
    /// Prepares for execution `index`; returns false when the strategy has nothing left to
    /// explore.
    mutating func beginExecution(_ index: Int) -> Bool
    /// Called when a thread is created (the root thread too).
    mutating func threadCreated(_ thread: Int)
    /// Picks the index of the candidate that runs next. `running` is the thread that
    /// reached the scheduling point when it is among the candidates (choosing another one
    /// preempts it). `candidates` is sorted by thread and never empty.
    mutating func choose(among candidates: [Candidate], running: Int?, step: Int) -> Int
    /// Called when the execution ended after `steps` steps.
    mutating func endExecution(steps: Int)
}

extension SchedulingStrategy {
    mutating func threadCreated(_ thread: Int) {}
    mutating func endExecution(steps: Int) {}
}
