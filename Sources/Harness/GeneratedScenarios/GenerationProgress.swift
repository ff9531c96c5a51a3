import Foundation

/// Progress lines on standard error for long generated-scenario campaigns, at most one per
/// interval (`HARNESS_PROGRESS`), and one at the end.
struct GenerationProgress {
    let test: String
    let strategy: Strategy
    let seed: UInt64
    let scenarios: Int
    let interval: Double?
    private let start = ContinuousClock.now
    private var lastPrinted = ContinuousClock.now

    init(test: String, strategy: Strategy, seed: UInt64, scenarios: Int, interval: Double?) {
        self.test = test
        self.strategy = strategy
        self.seed = seed
        self.scenarios = scenarios
        self.interval = interval
    }

    /// After a scenario's exploration.
    mutating func update(scenariosDone: Int, schedules: Int, failed: Bool) {
        guard due() else { return }
        write(scenarioLine(scenariosDone: scenariosDone, schedules: schedules, failed: failed))
    }

    /// After a shrink candidate's exploration.
    mutating func shrinking(candidates: Int, steps: Int, shape: String) {
        guard due() else { return }
        write("\(prefix) shrinking: \(candidates) candidates explored, \(steps) steps taken, now \(shape)")
    }

    /// At the end.
    func finish(scenariosDone: Int, schedules: Int, failed: Bool) {
        if interval != nil { write(scenarioLine(scenariosDone: scenariosDone, schedules: schedules, failed: failed)) }
    }

    private var prefix: String {
        "\(ProgressLine.prefix)\(test) [\(strategy) seed 0x\(String(seed, radix: 16))]"
    }

    private func scenarioLine(scenariosDone: Int, schedules: Int, failed: Bool) -> String {
        let seconds = max((ContinuousClock.now - start).seconds, 1e-9)
        return "\(prefix) \(scenariosDone)/\(scenarios) scenarios, \(schedules) schedules, \(Int(Double(schedules) / seconds))/s, \(failed ? 1 : 0) failures"
    }

    private mutating func due() -> Bool {
        guard let interval, (ContinuousClock.now - lastPrinted).seconds >= interval else { return false }
        lastPrinted = ContinuousClock.now
        return true
    }

    private func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
