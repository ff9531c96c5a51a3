/// What a stress run prints, handed down by the caller (the report's words), so the run
/// holds no sentence of its own. The progress and crash-note closures run on the run's
/// watching thread.
struct StressRunWording<Outcome: Hashable & Sendable>: Sendable {
    /// What every progress line starts with (``ProgressMeter/label``).
    let progressLabel: String
    /// A progress line after the label, from iterations ended, the budget, the time so far
    /// and the iterations that ended in a forbidden outcome.
    let progressLine: @Sendable (_ iterations: Int, _ budget: Int, _ elapsed: Duration, _ forbidden: Int) -> String
    /// The lines a run with progress lines ends with, after the label.
    let finishedLines: @Sendable (_ histogram: StressHistogram<Outcome>, _ elapsed: Duration) -> String
    /// What the process prints when a thread of the run crashes, from iterations ended and
    /// the forbidden ones among them.
    let crashNote: @Sendable (_ iterations: Int, _ forbidden: Int) -> String
}
