/// Replay as a strategy: each execution follows a recorded schedule step by step and, where
/// the code leaves it, hands over to `base`, so the rest of the execution is a seeded search
/// from the point of divergence. The execution checks its steps against the schedule
/// (``ReplayFollower``); this strategy chooses only once the code left it.
///
/// It names itself as its base: a replay runs the strategy that recorded the token, seeded as
/// it was, so every schedule it runs (the token's own, and those searched from where the
/// code left it) is named by the strategy that chose its steps.
struct ReplayThenSearch: SchedulingStrategy {
    /// The recorded schedule, as the token holds it.
    let recordedSchedule: [EncodedStep]?
    /// The strategy that decides where the code leaves the schedule.
    private(set) var base: any SchedulingStrategy

    /// Follows `steps` in each execution, then lets `base` decide.
    init(following steps: [EncodedStep], then base: any SchedulingStrategy) {
        recordedSchedule = steps
        self.base = base
    }

    mutating func beginExecution(_ index: Int) -> Bool {
        base.beginExecution(index)
    }

    mutating func threadCreated(_ thread: Int, by parent: Int?) {
        base.threadCreated(thread, by: parent)
    }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        base.choose(among: candidates, running: running)
    }

    mutating func endExecution(steps: Int) {
        base.endExecution(steps: steps)
    }
}
