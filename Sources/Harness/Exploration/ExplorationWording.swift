/// How far a campaign of explorations has got: what its progress lines tell, as values
/// (``ExplorationWording/progressLine`` words them).
enum ExplorationProgress: Sendable {
    /// `done` of the `budget` schedules of an exploration ran, `failures` of them failed.
    case schedules(done: Int, budget: Int, failures: Int)
    /// `done` of the `budget` scenarios of a generated-scenario campaign were explored, in
    /// `schedules` schedules; `failed` when one of them failed.
    case scenarios(done: Int, budget: Int, schedules: Int, failed: Bool)
    /// A generated-scenario campaign is shrinking a failure: `candidates` explored, `steps`
    /// taken, and the failing scenario's shape now.
    case shrinking(candidates: Int, steps: Int, shape: String)
}

/// What an exploration and a generated-scenario campaign print, handed down by the campaign
/// (the report's words), so the loops hold no sentence of their own.
struct ExplorationWording: Sendable {
    /// What every progress line of the campaign `name` starts with, which searches with
    /// `strategy` from `seed`.
    let progressLabel: @Sendable (_ name: String, _ strategy: Strategy, _ seed: UInt64) -> String
    /// A progress line after the label, from how far the campaign has got and the time so far.
    let progressLine: @Sendable (_ progress: ExplorationProgress, _ elapsed: Duration) -> String
    /// What a crash of the execution `tokenPrefix` names (a token without steps) of `scenario`,
    /// found by the test `testID`, prints before and after the schedule's steps.
    let crashText:
        @Sendable (_ scenario: String, _ tokenPrefix: String, _ testID: String?) -> (prefix: String, suffix: String)
}
