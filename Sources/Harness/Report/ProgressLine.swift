import Foundation

/// Writes a long campaign's progress on standard error: at most one line per interval
/// (`HARNESS_PROGRESS`, `HARNESS_STRESS_PROGRESS`) while it runs, and its last lines when it
/// ends; nothing at all without an interval. Every line starts with the campaign's label;
/// the campaign builds the rest: an exploration's and a generated-scenario campaign's here, a
/// stress run's in ``StressReportText``.
struct ProgressLine {
    /// How the label of every exploration and generated-scenario campaign starts.
    static let prefix = "harness: "

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

    // MARK: Texts

    /// The label of an exploration or a generated-scenario campaign: `harness: name
    /// [strategy seed 0x…]`.
    static func label(_ name: String, strategy: Strategy, seed: UInt64) -> String {
        "\(prefix)\(name) [\(strategy) seed 0x\(String(seed, radix: 16))]"
    }

    /// How many per second `count` things in `elapsed` are, rounded down.
    static func rate(_ count: Int, in elapsed: Duration) -> Int {
        Int(Double(count) / max(elapsed.seconds, 1e-9))
    }

    /// An exploration's progress: `120/200 schedules, 950/s, 0 failures`.
    static func exploration(done: Int, budget: Int, failures: Int, elapsed: Duration) -> String {
        "\(done)/\(budget) schedules, \(rate(done, in: elapsed))/s, \(failures) failures"
    }

    /// A generated-scenario campaign's progress: `3/10 scenarios, 300 schedules, 950/s, 0 failures`.
    static func generation(scenariosDone: Int, scenarios: Int, schedules: Int, failed: Bool, elapsed: Duration)
        -> String
    {
        "\(scenariosDone)/\(scenarios) scenarios, \(schedules) schedules, \(rate(schedules, in: elapsed))/s, \(failed ? 1 : 0) failures"
    }

    /// A generated-scenario campaign's progress while it shrinks a failure:
    /// `shrinking: 40 candidates explored, 3 steps taken, now …`.
    static func shrinking(candidates: Int, steps: Int, shape: String) -> String {
        "shrinking: \(candidates) candidates explored, \(steps) steps taken, now \(shape)"
    }
}
