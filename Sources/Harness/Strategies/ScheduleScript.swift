/// A schedule written as its context switches rather than as its steps, so that one
/// preemption can be taken out and the rest still mean the same: a preemption is "when
/// thread A has been chosen n times, run B instead of letting A go on", a free choice is
/// "when thread A, chosen n times, could not go on (it blocked, yielded or ended), run C",
/// and a job choice is "the k-th time, the i-th queued job". Shrinking takes preemptions out
/// one at a time (``removingPreemption(_:)``).
struct ScheduleScript: Hashable {
    /// A thread, and how many times it had been chosen: where a switch happened.
    struct PreemptionPoint: Hashable {
        let thread: Int
        let timesChosen: Int
    }

    /// Each preemption and the thread it ran instead.
    private(set) var preemptions: [PreemptionPoint: Int] = [:]
    /// Each free choice, at the thread that last ran, and the thread it ran.
    private(set) var freeChoices: [PreemptionPoint: Int] = [:]
    /// The queued job run at each choice among jobs, in order.
    private(set) var jobChoices: [Int] = []

    /// The script of an execution that made `decisions`.
    init(_ decisions: [ScheduleDecision]) {
        var timesChosen: [Int: Int] = [:]
        var lastChosen = -1
        for decision in decisions {
            switch decision {
            case let .thread(running, chosen):
                if let running, running != chosen {
                    preemptions[PreemptionPoint(thread: running, timesChosen: timesChosen[running, default: 0])] =
                        chosen
                } else if running == nil {
                    freeChoices[PreemptionPoint(thread: lastChosen, timesChosen: timesChosen[lastChosen, default: 0])] =
                        chosen
                }
                timesChosen[chosen, default: 0] += 1
                lastChosen = chosen
            case .job(let index):
                jobChoices.append(index)
            }
        }
    }

    /// The points of its preemptions, latest first within each thread.
    var preemptionPoints: [PreemptionPoint] {
        preemptions.keys.sorted { ($0.timesChosen, $0.thread) > ($1.timesChosen, $1.thread) }
    }

    /// The same script where `point` lets the running thread go on.
    func removingPreemption(_ point: PreemptionPoint) -> ScheduleScript {
        var script = self
        script.preemptions[point] = nil
        return script
    }
}

/// One decision of an execution, as a ``ScheduleScript`` needs it.
enum ScheduleDecision: Hashable {
    /// `chosen` ran; `running` is the thread that reached the scheduling point when it could
    /// go on, `nil` when it could not (it blocked, yielded, or ended).
    case thread(running: Int?, chosen: Int)
    /// The lane ran queued job `index`.
    case job(Int)
}

/// Plays a ``ScheduleScript``: the running thread goes on except at the script's
/// preemptions; free choices follow the script where it has one, else the lowest-numbered
/// thread runs; job choices follow it while it lasts, then the first queued job. Never wakes
/// a waiter spuriously.
struct ScriptedSchedule: SchedulingStrategy {
    let script: ScheduleScript
    private var timesChosen: [Int: Int] = [:]
    private var lastChosen = -1
    private var jobChoicesMade = 0

    init(_ script: ScheduleScript) {
        self.script = script
    }

    mutating func beginExecution(_ index: Int) -> Bool {
        timesChosen = [:]
        lastChosen = -1
        jobChoicesMade = 0
        return true
    }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        if case .job = candidates.first?.choice {
            defer { jobChoicesMade += 1 }
            let wanted = jobChoicesMade < script.jobChoices.count ? script.jobChoices[jobChoicesMade] : 0
            return wanted < candidates.count ? wanted : 0
        }
        let fallback = candidates.firstIndex { !$0.choice.isInjected } ?? 0
        var chosen = fallback
        if let running {
            let point = ScheduleScript.PreemptionPoint(thread: running, timesChosen: timesChosen[running, default: 0])
            let target = script.preemptions[point] ?? running
            chosen =
                candidates.firstIndex { $0.choice == .thread(target) } ?? candidates.firstIndex {
                    $0.choice == .thread(running)
                } ?? fallback
        } else if let wanted = script.freeChoices[
            ScheduleScript.PreemptionPoint(thread: lastChosen, timesChosen: timesChosen[lastChosen, default: 0])]
        {
            chosen = candidates.firstIndex { $0.choice == .thread(wanted) } ?? fallback
        }
        if case .thread(let thread) = candidates[chosen].choice {
            timesChosen[thread, default: 0] += 1
            lastChosen = thread
        }
        return chosen
    }
}
