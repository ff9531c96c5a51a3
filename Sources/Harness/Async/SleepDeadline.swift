/// A sleep on a system clock as the executor receives it: a deadline on the real clock, from
/// which the harness recovers the duration the code asked for, to wait it on the virtual
/// clock (``AsyncServices``).
///
/// `Task.sleep(for:)` reads the real clock and asks to wake at that reading plus its
/// duration. Its job reaches the executor microseconds later, or milliseconds later when the
/// OS preempted the thread in between, as it does on a loaded machine. The time left to the
/// deadline when the job arrives is short of the duration by that delay. Rounded up to a
/// whole millisecond it is the duration, unless the delay was a millisecond or more: then
/// the virtual clock woke the sleeper early, and a replay on an idle machine, or a run on a
/// loaded one, advanced the clock by other amounts and left its token.
///
/// The harness knows when the sleeping task's job started. If the sleep read the clock in
/// that job, the duration asked for lies between ``remaining`` and ``remaining`` plus
/// ``slack``. ``delay`` takes the roundest whole millisecond there (the most trailing zeros,
/// a 5 before them rounder than another digit; of equally round ones, the least): durations
/// written in code are round, so a hold-up of a few milliseconds no longer shortens a 300 ms
/// sleep. A 299 ms one is kept whenever its job reached the executor within a millisecond
/// of starting, as it nearly always does.
///
/// The sleep may have read the clock in the task's previous job instead (``TaskRunTimes``):
/// a task with no executor preference changes executor inside the runtime's sleep, after
/// reading the clock, and waits for a lane while other jobs run. The harness knows how long
/// that job ran and how long the task then waited (``previous``), so a read there gives a
/// range of its own, as narrow as that job was short, and as far past ``remaining`` as the
/// time since. Each range's roundest millisecond is a candidate; ``delay`` is the rounder,
/// the previous job's when they are equally round (as a sleep that changed executor read
/// the clock there). A duration written in code is round in the range of the job that read
/// the clock, and only by chance in the few microseconds of the other.
///
/// A job that ran long before it slept (or one held up for long) spans durations rounder
/// than the one asked for: a 300 ms sleep after 250 ms of work could be taken for 500 ms. So
/// a range ends a quarter of its start past it: the virtual clock never lengthens a sleep by
/// more than a quarter of the time left to its deadline.
///
/// A deadline read before the task last suspended to wait for something (`sleep(until:)`
/// with an instant kept across an `await` that waits) waits what is left of it by the real
/// clock, rounded up to a whole millisecond.
struct SleepDeadline: Equatable {
    /// The job of the sleeping task's run before the one that slept: how long it ran until
    /// the task queued itself, and how long the task then waited for a lane.
    struct PreviousJob: Equatable {
        let ran: Duration
        let waited: Duration
    }

    /// From the real clock's reading as the job arrived to the deadline.
    let remaining: Duration
    /// How long the job that slept has run.
    let slack: Duration
    /// The run's previous job, if it has one.
    let previous: PreviousJob?

    init(remaining: Duration, slack: Duration, previous: PreviousJob? = nil) {
        self.remaining = remaining
        self.slack = slack
        self.previous = previous
    }

    /// The delay to wait on the virtual clock: the rounder candidate of the two jobs that
    /// may have read the clock (see the type's summary).
    var delay: Duration {
        let current = Self.candidate(from: remaining, slack: slack)
        guard let previous else { return current.delay }
        let before = Self.candidate(from: remaining + previous.waited + slack, slack: previous.ran)
        return before.roundness >= current.roundness ? before.delay : current.delay
    }

    /// A delay and how round it is: the largest step (1, 5, 10, 50, … ms) it is a multiple
    /// of; 0 for a deadline that has passed, -1 for one rounded up for want of a whole
    /// millisecond in range.
    private typealias Candidate = (delay: Duration, roundness: Int64)

    /// The roundest whole millisecond from `earliest` to that plus `slack` or a quarter of
    /// it, whichever is less; `earliest` rounded up to a whole millisecond when there is
    /// none; zero for a deadline that has passed.
    private static func candidate(from earliest: Duration, slack: Duration) -> Candidate {
        guard earliest > .zero else { return (.zero, 0) }
        // Beyond what whole milliseconds in an `Int64` hold, no rounding matters.
        guard earliest < longest else { return (earliest, 0) }
        let latest = earliest + min(slack, earliest / 4)
        let whole = earliest.wholeMilliseconds
        let least = Duration.milliseconds(whole) < earliest ? whole + 1 : whole
        let most = latest.wholeMilliseconds
        var roundest: Candidate = (.milliseconds(least), -1)
        // Each step is rounder than the one before, and a multiple of it: 1, 5, 10, 50, 100, …
        var step: Int64 = 1
        var multiplier: Int64 = 5
        while step <= most {
            let first = (least + step - 1) / step * step
            if first <= most { roundest = (.milliseconds(first), step) }
            step *= multiplier
            multiplier = multiplier == 5 ? 2 : 5
        }
        return roundest
    }

    private static let longest = Duration.seconds(Int64.max / 1_000_000)
}
