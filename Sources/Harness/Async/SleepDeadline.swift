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
/// The harness knows when the calling thread's job started. The sleep read the clock no
/// earlier, so the duration asked for lies between ``remaining`` and ``remaining`` plus
/// ``slack``. ``delay`` takes the roundest whole millisecond there (the most trailing zeros,
/// a 5 before them rounder than another digit; of equally round ones, the least): durations
/// written in code are round, so a hold-up of a few milliseconds no longer shortens a 300 ms
/// sleep. A 299 ms one is kept whenever its job reached the executor within a millisecond
/// of starting, as it nearly always does.
///
/// A job that ran long before it slept (or one held up for long) spans durations rounder
/// than the one asked for: a 300 ms sleep after 250 ms of work could be taken for 500 ms. So
/// the range ends a quarter of ``remaining`` past it: the virtual clock never lengthens a
/// sleep by more than a quarter of the time left to its deadline.
///
/// A deadline read in an earlier job (`sleep(until:)` with an instant kept across an `await`)
/// waits what is left of it by the real clock, rounded up to a whole millisecond.
struct SleepDeadline {
    /// From the real clock's reading as the job arrived to the deadline: at most the
    /// duration asked for.
    let remaining: Duration
    /// How long the calling thread's job has run: the sleep read the clock no earlier, so
    /// the duration asked for is at most ``remaining`` plus this.
    let slack: Duration

    /// The delay to wait on the virtual clock: the roundest whole millisecond from
    /// ``remaining`` to ``remaining`` plus ``slack`` or a quarter of ``remaining``, whichever
    /// is less; ``remaining`` rounded up to a whole millisecond when there is none; zero for
    /// a deadline that has passed.
    var delay: Duration {
        guard remaining > .zero else { return .zero }
        // Beyond what whole milliseconds in an `Int64` hold, no rounding matters.
        guard remaining < Self.longest else { return remaining }
        let latest = remaining + min(slack, remaining / 4)
        let whole = remaining.wholeMilliseconds
        let least = Duration.milliseconds(whole) < remaining ? whole + 1 : whole
        let most = latest.wholeMilliseconds
        var roundest = least
        // Each step is rounder than the one before, and a multiple of it: 1, 5, 10, 50, 100, …
        var step: Int64 = 1
        var multiplier: Int64 = 5
        while step <= most {
            let first = (least + step - 1) / step * step
            if first <= most { roundest = first }
            step *= multiplier
            multiplier = multiplier == 5 ? 2 : 5
        }
        return .milliseconds(roundest)
    }

    private static let longest = Duration.seconds(Int64.max / 1_000_000)
}
