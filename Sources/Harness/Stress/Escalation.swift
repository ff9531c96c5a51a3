/// The search under the deterministic scheduler for a schedule that ends in a forbidden
/// outcome a stress run saw.
///
/// Each search (``EscalationSearch``) explores a body that fails an execution when its
/// outcome equals the one it looks for: for a hand-written ``StressTest``, the test's own
/// body. A failed check, an error or a hang fails the execution by itself; a returned outcome is compared
/// as a value at the end of the body, which fails the execution with
/// ``ExecutionFailure/forbiddenOutcome(outcome:thread:)`` when it is the one looked for. A
/// failed check counts as the same outcome when it failed at the same place, as the
/// harness's shrinking counts it: the values in its message may differ. The forbidden
/// outcomes share the budget.
struct Escalation<Outcome: Hashable & Sendable> {
    let options: EscalationOptions
    /// Why a leak of threads is not searched for (the report's words).
    let leakNotSearched: String
    /// The search for one outcome; its executions count in the tally the other forbidden
    /// outcomes they return.
    let plan: @Sendable (StressOutcome<Outcome>, EscalationTally) -> EscalationSearch

    /// An escalation whose searches `plan` makes.
    init(
        options: EscalationOptions,
        leakNotSearched: String,
        plan: @escaping @Sendable (StressOutcome<Outcome>, EscalationTally) -> EscalationSearch
    ) {
        self.options = options
        self.leakNotSearched = leakNotSearched
        self.plan = plan
    }

    /// The escalation of the hand-written stress test `test` named `name`: each search
    /// explores the test's own body (``searchBody(_:reaching:countingOthersIn:)``), and a
    /// crash in it prints `wording`'s words.
    init(
        name: String,
        test: StressTest<Outcome>,
        options: EscalationOptions,
        leakNotSearched: String,
        wording: ExplorationWording
    ) {
        self.init(options: options, leakNotSearched: leakNotSearched) { target, others in
            EscalationSearch(
                scenario: name,
                options: options,
                body: Self.searchBody(test, reaching: target, countingOthersIn: others),
                matches: { Self.matches(target, $0) },
                wording: wording
            )
        }
    }

    /// Searches for each of `targets` (at most ``EscalationOptions/maxTargets``), sharing
    /// the budget among them.
    func search(for targets: [StressOutcome<Outcome>]) -> [StressEscalation<Outcome>] {
        var searched: [StressOutcome<Outcome>] = []
        for target in targets where !searched.contains(where: { Self.sameSearch($0, target) }) {
            searched.append(target)
        }
        searched = Array(searched.prefix(options.maxTargets))
        let searchable = searched.filter(\.endsAnIteration).count
        let share = max(options.schedules / max(searchable, 1), 1)
        return searched.map { target in
            guard target.endsAnIteration else {
                return StressEscalation(target: target, result: .notSearched(reason: leakNotSearched))
            }
            let others = EscalationTally()
            return StressEscalation(target: target, result: plan(target, others).run(budget: share, others: others))
        }
    }

    /// Whether one search serves both outcomes: failed checks at one place, or two hangs.
    private static func sameSearch(_ first: StressOutcome<Outcome>, _ second: StressOutcome<Outcome>) -> Bool {
        switch (first, second) {
        case let (.checkFailed(_, firstFile, firstLine), .checkFailed(_, secondFile, secondLine)):
            firstFile == secondFile && firstLine == secondLine
        case (.hung, .hung):
            true
        default:
            first == second
        }
    }

    /// The body a search runs: the test's body, failing when it returns `target`, and
    /// counting in `others` the other forbidden outcomes it returns.
    static func searchBody(
        _ test: StressTest<Outcome>,
        reaching target: StressOutcome<Outcome>,
        countingOthersIn others: EscalationTally
    ) -> @Sendable (Scenario) throws -> Void {
        { scenario in
            let outcome = try test.body(scenario)
            if case .returned(let wanted) = target, outcome == wanted {
                reach(outcome)
            } else if test.outcomes.classify(outcome).verdict == .forbidden {
                others.add()
            }
        }
    }

    /// The body a replay runs: the test's body, failing when it returns a forbidden outcome,
    /// at the same point as the search did, so the replay fails identically.
    static func replayBody(_ test: StressTest<Outcome>) -> @Sendable (Scenario) throws -> Void {
        { scenario in
            let outcome = try test.body(scenario)
            if test.outcomes.classify(outcome).verdict == .forbidden { reach(outcome) }
        }
    }

    /// Fails the execution: it returned the forbidden `outcome`.
    private static func reach(_ outcome: Outcome) {
        Harness.failExecution { thread in .forbiddenOutcome(outcome: "\(outcome)", thread: thread) }
    }

    /// Whether an execution that failed for `reason` ended in `target`. A search's body
    /// fails with a forbidden outcome only when it returned the one searched for
    /// (``searchBody(_:reaching:countingOthersIn:)`` compares them as values), so any such
    /// failure of the search is `target`.
    static func matches(_ target: StressOutcome<Outcome>, _ reason: ExecutionFailure) -> Bool {
        switch (target, reason) {
        case (.returned, .forbiddenOutcome):
            true
        case let (.checkFailed(_, file, line), .invariant(_, _, failedFile, failedLine)):
            file == failedFile && line == failedLine
        case let (.threw(error), .threadThrew(_, thrown)), let (.threw(error), .taskThrew(thrown)):
            error == thrown
        case (.hung, .deadlock), (.hung, .tasksDeadlocked), (.hung, .threadsStillRunning), (.hung, .stepBoundExceeded),
            (.hung, .stalled):
            true
        default:
            false
        }
    }
}

extension StressOutcome {
    /// Whether an iteration ends in this outcome; a leak of threads is the whole run's, and
    /// no failure of the deterministic scheduler matches it, so it is not searched for.
    var endsAnIteration: Bool {
        if case .leakedThreads = self { false } else { true }
    }
}

extension ExecutionFailure {
    /// Whether the failure says the scenario runs code the harness cannot schedule, so that
    /// searching on is pointless.
    var showsCodeOutsideTheSeam: Bool {
        switch self {
        case .stalled, .nondeterminism, .escaped: true
        default: false
        }
    }
}

/// The search for one forbidden outcome, and what it found.
public struct StressEscalation<Outcome: Hashable & Sendable>: Sendable {
    /// The outcome searched for.
    public let target: StressOutcome<Outcome>
    /// What the search found.
    public let result: EscalationResult
}

/// What a search under the deterministic scheduler found.
public enum EscalationResult: Sendable {
    /// A schedule that ends in the outcome: `failure` holds its replay token, its replay
    /// command and its lanes. `strategy` found it; the search ran `schedulesRun` schedules.
    case found(HarnessFailure, strategy: Strategy, schedulesRun: Int)
    /// No schedule within the budget ended in the outcome. `otherFailures` are failures met
    /// on the way (at most a few); `otherForbiddenReached` counts the schedules that returned
    /// another forbidden outcome; `likelyCauses` are why, the most likely first.
    case notFound(
        schedulesRun: Int, otherFailures: [HarnessFailure], otherForbiddenReached: Int, likelyCauses: [LikelyCause])
    /// The search could not run: `reason` says why.
    case notSearched(reason: String)

    /// The failure that replays the outcome, when the search found one.
    public var failure: HarnessFailure? {
        if case .found(let failure, _, _) = self { failure } else { nil }
    }
}

/// Why a forbidden outcome seen under stress may have no schedule under the harness.
public enum LikelyCause: Sendable, Hashable, CaseIterable {
    /// The harness runs one thread at a time over sequentially consistent memory; a race
    /// that needs weaker ordering (plain or relaxed accesses seen out of order) has no
    /// schedule there.
    case weakMemoryOrdering
    /// Shared state is touched outside the seam (plain variables, Foundation or
    /// `Synchronization` locks, Dispatch, unpreferred tasks), so the harness cannot
    /// interleave there.
    case codeOutsideTheSeam
    /// The outcome depends on real time (a timeout that fires because a thread was
    /// preempted), and the harness runs sleeps and timeouts on a virtual clock.
    case realTime
    /// The schedule exists but needs more preemptions or schedules than the budget allowed.
    case budget

    /// The causes, the most likely first: code outside the seam leads when the search met
    /// a stall or nondeterminism; the budget when it reached other forbidden outcomes of the
    /// test (the bug has schedules; this outcome needs more of them); memory ordering
    /// otherwise.
    static func ranked(_ others: [HarnessFailure], otherForbiddenReached: Int) -> [LikelyCause] {
        if others.contains(where: { $0.reason.showsCodeOutsideTheSeam }) {
            return [.codeOutsideTheSeam, .weakMemoryOrdering, .realTime, .budget]
        }
        if otherForbiddenReached > 0 {
            return [.budget, .weakMemoryOrdering, .codeOutsideTheSeam, .realTime]
        }
        return [.weakMemoryOrdering, .codeOutsideTheSeam, .realTime, .budget]
    }
}
