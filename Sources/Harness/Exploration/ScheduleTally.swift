/// What an exploration's schedules add up to, taken in index order, however many workers ran
/// them: how many ran, the interleavings they covered, the last one's steps, and the first
/// that failed, after which it takes no more.
struct ScheduleTally {
    /// Schedules taken.
    private(set) var executed = 0
    private var coverage: CoverageCounter
    /// The execution number and record of the last schedule taken that kept its record.
    private(set) var last: (execution: Int, record: ExecutionRecord)?
    /// Whether the last schedule taken failed: the tally is then complete.
    private(set) var failed = false

    /// A tally of at most `budget` schedules.
    init(budget: Int) {
        coverage = CoverageCounter(budget: budget)
    }

    /// Takes the next schedule in index order.
    mutating func add(_ outcome: ScheduleOutcome) {
        precondition(!failed, "a schedule was tallied after the exploration's failure")
        executed += 1
        coverage.note(outcome.fingerprint, threads: outcome.threads, steps: outcome.steps)
        if let record = outcome.record {
            last = (outcome.execution, record)
            failed = record.failure != nil
        }
    }

    /// The coverage of the schedules taken.
    var coverageSummary: Coverage { coverage.summary }

    /// The failing execution's number and record, if the last schedule taken failed.
    var failure: (execution: Int, record: ExecutionRecord)? { failed ? last : nil }
}

/// What one schedule's execution adds to a ``ScheduleTally``: its interleaving and size, and
/// its record when it failed or may be the last one taken.
struct ScheduleOutcome {
    /// The execution's number, which names it in its token.
    let execution: Int
    let fingerprint: UInt64
    let threads: Int
    let steps: Int
    /// The record, kept where it may be needed: for a failure, and for the schedule that may
    /// be the exploration's last.
    let record: ExecutionRecord?

    /// The outcome of execution `execution`, which `record` ended; the record is kept when it
    /// failed or when `keepsRecord`.
    init(execution: Int, _ record: ExecutionRecord, keepsRecord: Bool) {
        self.execution = execution
        fingerprint = record.fingerprint
        threads = record.threadCount
        steps = record.stepCount
        self.record = keepsRecord || record.failure != nil ? record : nil
    }
}
