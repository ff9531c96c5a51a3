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
/// The harness knows when the calling thread last started to run code it does not see: a
/// job, or the rest of one after a scheduling point. The sleep read the clock no earlier. So
/// the duration asked for lies between ``remaining`` and ``remaining`` plus ``slack``, and
/// ``delay`` takes the roundest whole millisecond there (the most trailing zeros, a 5 before
/// them rounder than another digit; of equally round ones, the least). Durations written in
/// code are round: a delay of a few milliseconds no longer moves a 300 ms sleep, and a
/// 299 ms one is kept whenever the thread ran for less than a millisecond since the harness
/// last handed it control, as it nearly always does.
///
/// A deadline read in an earlier job (`sleep(until:)` with an instant kept across an `await`)
/// waits what is left of it by the real clock, rounded up to a whole millisecond.
struct SleepDeadline {
    /// From the real clock's reading as the job arrived to the deadline: at most the
    /// duration asked for.
    let remaining: Duration
    /// How long the calling thread has run since the harness last handed it control: the
    /// sleep read the clock no earlier, so the duration asked for is at most ``remaining``
    /// plus this.
    let slack: Duration

    /// The delay to wait on the virtual clock: the roundest whole millisecond from
    /// ``remaining`` to ``remaining`` plus ``slack``; ``remaining`` rounded up to a whole
    /// millisecond when there is none; zero for a deadline that has passed.
    var delay: Duration {
        let latest = remaining + slack
        // Beyond what whole milliseconds in an `Int64` hold, no rounding matters.
        guard latest < Self.longest else { return remaining }
        guard latest > .zero else { return .zero }
        let least = max(Self.milliseconds(remaining, roundingUp: true), 0)
        let most = Self.milliseconds(latest, roundingUp: false)
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

    private static func milliseconds(_ duration: Duration, roundingUp: Bool) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let (whole, part) = attoseconds.quotientAndRemainder(dividingBy: attosecondsPerMillisecond)
        // The quotient is truncated toward zero; a remainder moves it to the bound's side.
        let rounded = whole + (part > 0 && roundingUp ? 1 : 0) - (part < 0 && !roundingUp ? 1 : 0)
        return seconds * 1000 + rounded
    }
}
