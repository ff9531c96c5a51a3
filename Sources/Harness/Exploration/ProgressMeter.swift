import Foundation

/// Writes a long campaign's progress on standard error: at most one line per interval
/// (`HARNESS_PROGRESS`, `HARNESS_STRESS_PROGRESS`) while it runs, and its last lines when it
/// ends; nothing at all without an interval. Every line starts with the campaign's label; the
/// campaign hands down the words of both (``ExplorationWording``, ``StressRunWording``).
struct ProgressMeter {
    /// What every line starts with.
    let label: String
    /// Seconds between lines; `nil` writes none.
    let interval: Double?
    private let start = ContinuousClock.now
    private var lastPrinted = ContinuousClock.now

    init(label: String, interval: Double?) {
        self.label = label
        self.interval = interval
    }

    /// Writes the line `text` builds from the wall time since the campaign began, when an
    /// interval has passed since the last line.
    mutating func update(_ text: (_ elapsed: Duration) -> String) {
        guard let interval, ContinuousClock.now - lastPrinted >= .seconds(interval) else { return }
        lastPrinted = .now
        write(text(ContinuousClock.now - start))
    }

    /// Writes the campaign's last lines, which `text` builds from the wall time since it
    /// began, when there is an interval.
    func finish(_ text: (_ elapsed: Duration) -> String) {
        guard interval != nil else { return }
        write(text(ContinuousClock.now - start))
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data("\(label) \(text)\n".utf8))
    }
}
