/// Decides, at every scheduling point, which candidate runs next. Owned by one execution at
/// a time and used only by its running thread.
///
/// An execution asks at two kinds of decision: which thread steps next (the runnable
/// threads, and spurious wake-ups of condition waiters), and which queued job a task-executor
/// lane runs (jobs only). Both come as ``Candidate`` lists, so every strategy chooses among
/// thread steps, spurious wake-ups and jobs with one model.
protocol SchedulingStrategy {
    /// Prepares for execution `index`; returns false when the strategy has nothing left to
    /// explore.
    mutating func beginExecution(_ index: Int) -> Bool
    /// Called when a thread is created: the root thread (with no parent) too.
    mutating func threadCreated(_ thread: Int, by parent: Int?)
    /// Picks the index of the candidate that runs next. `running` is the thread that
    /// reached the scheduling point when it is among the candidates (choosing another one
    /// preempts it). `candidates` is never empty; thread steps come sorted by thread,
    /// spurious wake-ups after them, jobs in queue order.
    mutating func choose(among candidates: Candidates, running: Int?) -> Int
    /// Called when the execution ended after `steps` steps without failing.
    mutating func endExecution(steps: Int)
    /// Called before ``endExecution(steps:)`` with the execution's interleaving fingerprint
    /// (``InterleavingFingerprint``), for strategies that learn from coverage.
    mutating func noteInterleaving(_ fingerprint: UInt64)
    /// The recorded schedule each execution follows, its steps checked as they are taken,
    /// before the strategy chooses (``ReplayThenSearch``); `nil` for a strategy that only
    /// searches.
    var recordedSchedule: [EncodedStep]? { get }
    /// Whether ``beginExecution(_:)``, called again with the index it was last given, puts
    /// the strategy back where that call did, whatever the execution chose since: it draws
    /// from the seed, the index and what the executions before taught it, and nothing else.
    /// An execution that must run again on OS threads then restarts the strategy; for another
    /// strategy the exploration keeps a copy made before the execution ran, which shares the
    /// strategy's storage until the execution's first choice copies it.
    var restartsByBeginningAgain: Bool { get }
}

extension SchedulingStrategy {
    mutating func threadCreated(_ thread: Int, by parent: Int?) {}
    mutating func endExecution(steps: Int) {}
    mutating func noteInterleaving(_ fingerprint: UInt64) {}
    var recordedSchedule: [EncodedStep]? { nil }
    var restartsByBeginningAgain: Bool { false }
}

extension SplitMix64 {
    /// How rarely the randomized strategies wake a condition waiter spuriously: at one
    /// decision in this many where one could.
    static let spuriousWakeOdds: UInt64 = 32

    /// With probability 1/``spuriousWakeOdds``, when `candidates` offers spurious wake-ups,
    /// the index of one of them, uniformly; otherwise `nil`. Draws nothing when none is
    /// offered.
    mutating func occasionalSpuriousWake(among candidates: Candidates) -> Int? {
        occasionalSpuriousWake(among: candidates, injected: Self.injectedCount(of: candidates))
    }

    /// A uniformly random candidate that runs a thread or a job, or, as
    /// ``occasionalSpuriousWake(among:)`` picks one, an injected one: the same draws and the
    /// same index as that, then ``element(of:)`` of the indices of the others, counting the
    /// candidates once and building no array. The randomized strategies' choice at every
    /// decision.
    mutating func uniformIndex(of candidates: Candidates) -> Int {
        let injected = Self.injectedCount(of: candidates)
        if let spurious = occasionalSpuriousWake(among: candidates, injected: injected) { return spurious }
        let drawn = Int(next(upperBound: UInt64(candidates.count - injected)))
        // With no injected candidate, as at most decisions, the draw is the index.
        guard injected > 0 else { return drawn }
        return Self.index(drawn, of: candidates) { !$0.choice.isInjected }
    }

    /// A uniformly random index of `indices`.
    mutating func element(of indices: [Int]) -> Int {
        indices[Int(next(upperBound: UInt64(indices.count)))]
    }

    /// ``occasionalSpuriousWake(among:)``, told that `injected` of `candidates` are injected.
    private mutating func occasionalSpuriousWake(among candidates: Candidates, injected: Int) -> Int? {
        guard injected > 0, next(upperBound: Self.spuriousWakeOdds) == 0 else { return nil }
        return Self.index(Int(next(upperBound: UInt64(injected))), of: candidates) { $0.choice.isInjected }
    }

    /// How many of `candidates` are injected: spurious wake-ups and early timeouts.
    private static func injectedCount(of candidates: Candidates) -> Int {
        var count = 0
        for candidate in candidates where candidate.choice.isInjected { count += 1 }
        return count
    }

    /// The index of the candidate that is the `position`th (from 0) of those that satisfy
    /// `isIncluded`.
    private static func index(_ position: Int, of candidates: Candidates, where isIncluded: (Candidate) -> Bool)
        -> Int
    {
        var remaining = position
        for index in candidates.indices where isIncluded(candidates[index]) {
            if remaining == 0 { return index }
            remaining -= 1
        }
        preconditionFailure("no candidate to choose from")
    }
}
