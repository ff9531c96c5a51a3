/// The schedules each shrink candidate of a failing generated scenario is explored with: at
/// least the configured budget per scenario, and twice the most schedules any failure of the
/// shrink (the scenario's, and each smaller one's taken) needed to show, within the limit of
/// ``ExplorationOptions/Limits/schedules``. A failure found late in its budget then does not
/// make every candidate fail to show it in time and keep a call shrinking could drop:
/// removing an irrelevant call leaves the failure as hard to reach as it was, not harder
/// than twice that.
struct ShrinkBudget {
    /// The schedules a candidate is explored with now.
    private(set) var schedules: Int

    /// The budget for a shrink whose scenario failed at schedule `needed` (from 1) of a
    /// configured budget of `configured`.
    init(configured: Int, needed: Int) {
        schedules = configured
        noteFailure(needed: needed)
    }

    /// Notes that a failure the shrink took needed `needed` schedules.
    mutating func noteFailure(needed: Int) {
        let doubled = needed.multipliedReportingOverflow(by: 2)
        let wanted = doubled.overflow ? Int.max : doubled.partialValue
        schedules = min(max(schedules, wanted), ExplorationOptions.Limits.schedules.upperBound)
    }
}
