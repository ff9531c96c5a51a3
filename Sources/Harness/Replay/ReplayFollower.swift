/// Follows a recorded schedule step by step during one execution: the one place where a
/// replay is checked against what the code does.
///
/// Where the code leaves the schedule (a step differs, the schedule's choice cannot be
/// made, the execution goes on past its end or ends before it) the follower notes the first
/// such step and stops following: from there the execution's strategy decides, so the rest
/// of the execution is a seeded search from the point of divergence.
struct ReplayFollower {
    /// Where and how the code first left the schedule.
    struct Divergence: Hashable {
        let step: Int
        let detail: String
    }

    private let steps: [EncodedStep]
    /// The first divergence, once there is one.
    private(set) var divergence: Divergence?

    /// Whether the code still follows the schedule.
    var isFollowing: Bool { divergence == nil }

    init(steps: [EncodedStep]) {
        self.steps = steps
    }

    /// The choice the schedule makes at `step` among `candidates`; `nil` once the code has
    /// left the schedule (then the strategy decides), which this call may find out.
    /// `describe` names a runnable thread for the divergence's detail.
    mutating func choice(at step: Int, among candidates: [Candidate], describe: (Int) -> String) -> Choice? {
        guard divergence == nil else { return nil }
        guard step < steps.count else {
            diverge(at: step, "the execution goes on past the token's last step (\(steps.count) steps)")
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
            let runnable = candidates.compactMap { candidate -> String? in
                guard case .thread(let thread) = candidate.choice else { return nil }
                return describe(thread)
            }
            diverge(
                at: step,
                "the token runs T\(thread) (\(expected.kind)) but it cannot run here; runnable: "
                    + "\(runnable.joined(separator: ", "))"
            )
            return nil
        }
        return wanted
    }

    /// The job the schedule runs at `step` among `count` queued ones; `nil` once the code
    /// has left the schedule.
    mutating func jobChoice(at step: Int, among count: Int) -> Int? {
        guard divergence == nil else { return nil }
        guard step < steps.count, steps[step].kind == .chooseJob, let choice = steps[step].choice, choice < count else {
            diverge(
                at: step,
                "the code chose among \(count) queued jobs; the token has "
                    + "\(step < steps.count ? "\(steps[step])" : "no more steps")"
            )
            return nil
        }
        return choice
    }

    /// Checks the step the code took at `index` against the schedule's.
    mutating func check(_ taken: EncodedStep, at index: Int, summary: @autoclosure () -> String) {
        guard divergence == nil else { return }
        if index >= steps.count {
            diverge(at: index, "the execution goes on past the token's last step (\(steps.count) steps)")
        } else if steps[index] != taken {
            diverge(at: index, "the token has \(steps[index]) but the code took \(taken): \(summary())")
        }
    }

    /// Notes the end of the execution after `stepCount` steps.
    mutating func finish(after stepCount: Int) {
        if divergence == nil, stepCount < steps.count {
            diverge(at: stepCount, "the execution ended after \(stepCount) steps; the token has \(steps.count)")
        }
    }

    private mutating func diverge(at step: Int, _ detail: String) {
        divergence = Divergence(step: step, detail: detail)
    }
}
