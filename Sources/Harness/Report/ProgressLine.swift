/// The words of a long campaign's progress lines (``ProgressMeter`` writes them): an
/// exploration's and a generated-scenario campaign's here, a stress run's in
/// ``StressReportText``.
enum ProgressLine {
    /// The label of an exploration or a generated-scenario campaign: `harness: name
    /// [strategy seed 0x…]`.
    static func label(_ name: String, strategy: Strategy, seed: UInt64) -> String {
        "\(ChildChannel.progressMarker)\(name) [\(strategy) seed 0x\(String(seed, radix: 16))]"
    }

    /// How many per second `count` things in `elapsed` are, rounded down.
    static func rate(_ count: Int, in elapsed: Duration) -> Int {
        Int(Double(count) / max(elapsed.seconds, 1e-9))
    }

    /// A progress line after the label.
    static func line(_ progress: ExplorationProgress, elapsed: Duration) -> String {
        switch progress {
        case .schedules(let done, let budget, let failures):
            // `120/200 schedules, 950/s, 0 failures`
            "\(done)/\(budget) schedules, \(rate(done, in: elapsed))/s, \(failures) failures"
        case .scenarios(let done, let budget, let schedules, let failed):
            // `3/10 scenarios, 300 schedules, 950/s, 0 failures`
            "\(done)/\(budget) scenarios, \(schedules) schedules, \(rate(schedules, in: elapsed))/s, "
                + "\(failed ? 1 : 0) failures"
        case .shrinking(let candidates, let steps, let shape):
            "shrinking: \(candidates) candidates explored, \(steps) steps taken, now \(shape)"
        }
    }
}

extension ExplorationWording {
    /// What an exploration and a generated-scenario campaign print for a person at a
    /// terminal: these progress lines, and a crash's replay command.
    static let forPerson = words(crash: .forPerson)
    /// What the exploration of an isolated child prints: these progress lines, which the
    /// parent passes on, and a crash's token on a line the parent reads.
    static let forParent = words(crash: .forParent)

    private static func words(crash: CrashReportText) -> ExplorationWording {
        ExplorationWording(progressLabel: ProgressLine.label, progressLine: ProgressLine.line, crashText: crash.text)
    }
}
