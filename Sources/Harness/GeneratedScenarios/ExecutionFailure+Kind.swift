/// What a shrink candidate must fail with to count as the same failure: the same case of
/// ``ExecutionFailure``, and for a broken check, the same check (file and line), as
/// Hypothesis keeps the exception type and place.
enum FailureKind: Hashable, Sendable {
    case invariant(file: String, line: UInt)
    case deadlock
    case threadsStillRunning
    case stepBoundExceeded
    case threadThrew
    case taskThrew
    case stalled
    case tooManyThreads
    case nondeterminism
    case replayDiverged
    case crashed

    /// Whether shrinking a failure of this kind is worth its cost: not for a stall (each
    /// candidate that stalls takes the stall timeout), a crash (it ends the process) or a
    /// failure of the harness itself.
    var isShrinkable: Bool {
        switch self {
        case .stalled, .crashed, .tooManyThreads, .replayDiverged: false
        default: true
        }
    }
}

extension ExecutionFailure {
    /// The failure's kind, for shrinking.
    var kind: FailureKind {
        switch self {
        case let .invariant(_, _, file, line): .invariant(file: file, line: line)
        case .deadlock: .deadlock
        case .threadsStillRunning: .threadsStillRunning
        case .stepBoundExceeded: .stepBoundExceeded
        case .threadThrew: .threadThrew
        case .taskThrew: .taskThrew
        case .stalled: .stalled
        case .tooManyThreads: .tooManyThreads
        case .nondeterminism: .nondeterminism
        case .replayDiverged: .replayDiverged
        case .crashed: .crashed
        }
    }
}
