/// Follows a recorded schedule step by step during one execution: the one place where a
/// replay is checked against what the code does.
///
/// Where the code leaves the schedule (a step differs, the schedule's choice cannot be
/// made, the execution goes on past its end or ends before it) the follower notes the first
/// such step and stops following: from there the execution's strategy decides, so the rest
/// of the execution is a seeded search from the point of divergence.
struct ReplayFollower {
    /// Where and how the code first left the schedule.
    typealias Divergence = FailureNotReproduced.Divergence

    private let steps: [EncodedStep]
    /// The first divergence, once there is one.
    private(set) var divergence: Divergence? {
        didSet { isFollowing = divergence == nil }
    }

    /// Whether the code still follows the schedule: kept as a flag, asked at every decision
    /// and step, where testing ``divergence`` copied it.
    private(set) var isFollowing = true

    init(steps: [EncodedStep]) {
        self.steps = steps
    }

    /// The choice the schedule makes at `step` among `candidates`; `nil` once the code has
    /// left the schedule (then the strategy decides), which this call may find out.
    /// `pending` gives the operation a runnable thread waits to do, for the divergence.
    mutating func choice(at step: Int, among candidates: Candidates, pending: (Int) -> OperationKind?) -> Choice? {
        guard isFollowing else { return nil }
        guard step < steps.count else {
            diverge(at: step, .pastLastStep(tokenSteps: steps.count))
            return nil
        }
        let expected = steps[step]
        let thread = expected.thread ?? -1
        let wanted: Choice =
            switch expected.kind {
            case .spuriousWake: .spuriousWake(thread)
            case .advanceClock: .advanceClock
            default: .thread(thread)
            }
        guard candidates.contains(where: { $0.choice == wanted }) else {
            let runnable = candidates.compactMap { candidate -> EncodedStep? in
                guard case .thread(let thread) = candidate.choice, let kind = pending(thread) else { return nil }
                return EncodedStep(thread: thread, kind: kind)
            }
            diverge(at: step, .cannotRun(expected: expected, runnable: runnable))
            return nil
        }
        return wanted
    }

    /// The job the schedule runs at `step` among `count` queued ones; `nil` once the code
    /// has left the schedule.
    mutating func jobChoice(at step: Int, among count: Int) -> Int? {
        guard isFollowing else { return nil }
        guard step < steps.count, steps[step].kind == .chooseJob, let choice = steps[step].choice, choice < count else {
            diverge(at: step, .jobChoice(queued: count, recorded: step < steps.count ? steps[step] : nil))
            return nil
        }
        return choice
    }

    /// Checks the step the code took at `index` against the schedule's.
    /// `step` is the step as the trace holds it, for the divergence.
    mutating func check(_ taken: EncodedStep, at index: Int, step: @autoclosure () -> TraceStep) {
        guard isFollowing else { return }
        if index >= steps.count {
            diverge(at: index, .pastLastStep(tokenSteps: steps.count))
        } else if steps[index] != taken {
            diverge(at: index, .otherStep(recorded: steps[index], taken: step()))
        }
    }

    /// Notes the end of the execution after `stepCount` steps.
    mutating func finish(after stepCount: Int) {
        if isFollowing, stepCount < steps.count {
            diverge(at: stepCount, .endedEarly(steps: stepCount, tokenSteps: steps.count))
        }
    }

    private mutating func diverge(at step: Int, _ departure: Divergence.Departure) {
        divergence = Divergence(step: step, departure: departure)
    }
}
