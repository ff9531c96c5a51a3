/// One side of a comparison: code that performs a given number of operations and says how
/// long the measured part took (setup such as creating the object under test is left out).
///
/// The loop over the operations lives inside `measure`, written out for each workload, so
/// no closure call per operation dilutes what is compared.
public struct Workload: Sendable {
    /// What is measured, as the table prints it.
    public let name: String
    /// The bytes one operation moves, for workloads measured as throughput.
    public let bytesPerOperation: Int?
    /// Performs `operations` operations and returns the time they took.
    public let measure: @Sendable (_ operations: Int) async -> Duration

    /// A workload whose operations are synchronous.
    init(_ name: String, bytesPerOperation: Int? = nil, measure: @escaping @Sendable (_ operations: Int) -> Duration) {
        self.name = name
        self.bytesPerOperation = bytesPerOperation
        self.measure = { operations in measure(operations) }
    }

    /// A workload whose operations suspend.
    init(
        _ name: String, bytesPerOperation: Int? = nil,
        measure: @escaping @Sendable (_ operations: Int) async -> Duration
    ) {
        self.name = name
        self.bytesPerOperation = bytesPerOperation
        self.measure = measure
    }
}

/// What a comparison must show to meet its goal.
public enum Target: Sendable, CustomStringConvertible {
    /// The subject costs at most `limit` times the baseline.
    case atMost(Double)
    /// The subject is at least `factor` times faster than the baseline.
    case fasterBy(Double)
    /// The subject's median cost per operation is below `limit`, whatever the baseline's: an
    /// absolute goal, which the machine's speed moves (the baseline row says how fast it ran).
    case under(Duration)
    /// No goal: the row is there for information.
    case none

    /// Whether `ratio` (subject cost over baseline cost) and `cost` (the subject's median
    /// cost per operation) meet the goal; `nil` when there is none.
    public func isMet(ratio: Double, cost: Duration) -> Bool? {
        switch self {
        case .atMost(let limit): ratio <= limit
        case .fasterBy(let factor): ratio * factor <= 1
        case .under(let limit): cost < limit
        case .none: nil
        }
    }

    public var description: String {
        switch self {
        case .atMost(let limit): "≤ \(limit.formatted2)×"
        case .fasterBy(let factor): "≥ \(factor.formatted2)× faster"
        case .under(let limit): "< \(limit.roundText)"
        case .none: "—"
        }
    }
}

extension Duration {
    /// A round duration as a goal names it: `50 µs`, `100 ms`, `1 s`.
    var roundText: String {
        let nanoseconds = Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
        return switch nanoseconds {
        case ..<1_000: "\(Int(nanoseconds)) ns"
        case ..<1_000_000: "\(Int(nanoseconds / 1_000)) µs"
        case ..<1_000_000_000: "\(Int(nanoseconds / 1_000_000)) ms"
        default: "\(Int(nanoseconds / 1_000_000_000)) s"
        }
    }
}

/// A subject measured against its baseline in the same run.
public struct Comparison: Sendable {
    /// The primitive's operation.
    public let subject: Workload
    /// What it is compared with.
    public let baseline: Workload
    /// The goal for subject cost over baseline cost.
    public let target: Target

    init(_ subject: Workload, against baseline: Workload, target: Target) {
        self.subject = subject
        self.baseline = baseline
        self.target = target
    }
}

extension Double {
    /// The value with two decimals, for ratios and goals.
    public var formatted2: String {
        let hundredths = (self * 100).rounded()
        let whole = Int(hundredths / 100)
        let fraction = Int(abs(hundredths).truncatingRemainder(dividingBy: 100))
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// Runs `body` and returns how long it took on the continuous clock.
@inline(__always)
func timed(_ body: () throws -> Void) rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    return clock.now - start
}

/// Runs `body` and returns how long it took on the continuous clock.
@inline(__always)
func timed(_ body: () async throws -> Void) async rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    return clock.now - start
}

/// Runs `body`, which throws only if its task is cancelled (no benchmark task is) or its
/// primitive failed, and traps naming the error if it throws.
@inline(__always)
func uncancelled<Result>(_ body: () async throws -> Result) async -> Result {
    do {
        return try await body()
    } catch {
        preconditionFailure("a benchmark task was cancelled or its primitive failed: \(error)")
    }
}

/// Runs `body`, whose errors would mean that a benchmark's own file vanished or the disk
/// filled up, and traps naming the error if it throws.
@inline(__always)
@discardableResult
func mustSucceed<Result>(_ body: () throws -> Result) -> Result {
    do {
        return try body()
    } catch {
        preconditionFailure("a benchmark's file operation failed: \(error)")
    }
}

/// Keeps the optimizer from removing the computation of `value`.
@_optimize(none)
public func consume<Value>(_ value: Value) {}
