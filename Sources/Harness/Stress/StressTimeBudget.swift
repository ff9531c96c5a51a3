/// When a stress run's time is up, as a value of durations since the run began, so that it
/// is decided without a clock.
///
/// Without a cap the run ends at ``budget``. With one it adapts: it keeps going while new
/// outcomes (new rows of its histogram) appear, and ends once a whole ``budget`` has passed
/// since the last outcome it saw for the first time, or at ``cap``, whichever comes first.
struct StressTimeBudget: Hashable, Sendable {
    /// How long a run goes without a new outcome (``StressOptions/timeBudget``).
    let budget: Duration
    /// How long the run goes at most (``StressOptions/maxTimeBudget``); `nil` does not adapt.
    let cap: Duration?

    /// How long after it began the run ends, when the last outcome new to it was first seen
    /// `lastNewOutcome` after it began (zero before any).
    func end(lastNewOutcome: Duration) -> Duration {
        guard let cap else { return budget }
        return min(max(lastNewOutcome, .zero) + budget, cap)
    }

    /// Whether a run whose last new outcome came `lastNewOutcome` after it began ends at its
    /// cap, with outcomes still appearing within the last budget, rather than after a quiet
    /// budget.
    func endsAtCap(lastNewOutcome: Duration) -> Bool {
        guard let cap else { return false }
        return max(lastNewOutcome, .zero) + budget > cap
    }
}
