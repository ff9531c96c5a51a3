import Foundation
import Primitives

/// What lives for the whole test run in this process, added to by every campaign and read
/// once, when the process exits: the summary's entries, whether the token in `HARNESS_REPLAY`
/// fitted a scenario, and which front doors ran, so a knob set for none of them is named.
/// A process that does not sum up its run (an isolated child, an exit test: their parents do)
/// keeps nothing.
final class RunState: Sendable {
    /// The test run's. Process-wide because what it holds is written when the process exits,
    /// after the last test, from what every campaign of the run added.
    static let shared = RunState()

    private struct State {
        var entries: [CampaignEntry] = []
        var fitted = 0
        var missed: [String] = []
        var frontDoors: Set<Knob.FrontDoor> = []
        /// The environment of the first campaign that sums up the run.
        var environment: EnvironmentSnapshot?
    }

    nonisolated(unsafe) private var state = State()
    private let lock = SeamMutex()

    /// Notes that a campaign of `frontDoor` began under `environment`; the first arranges
    /// ``finish()`` at exit when this is the ``shared`` state.
    func begin(_ frontDoor: Knob.FrontDoor, environment: EnvironmentSnapshot) {
        guard environment.sumsUpRun else { return }
        let first = lock.withLockDirectly {
            state.frontDoors.insert(frontDoor)
            defer { state.environment = state.environment ?? environment }
            return state.environment == nil
        }
        if first, self === Self.shared {
            atexit { RunState.shared.finish() }
        }
    }

    /// Adds an exploration's line to the summary.
    func add(_ entry: CampaignEntry) {
        lock.withLockDirectly {
            guard state.environment != nil else { return }
            state.entries.append(entry)
        }
    }

    /// Notes whether the environment's token fitted `scenario`.
    func noteReplay(fits: Bool, scenario: String) {
        lock.withLockDirectly {
            guard state.environment != nil else { return }
            if fits { state.fitted += 1 } else { state.missed.append(scenario) }
        }
    }

    /// The summary's entries so far.
    var entries: [CampaignEntry] { lock.withLockDirectly { state.entries } }

    /// The knobs the run's environment sets that no front door of the run reads.
    var unreadKnobs: [Knob] {
        lock.withLockDirectly {
            guard let environment = state.environment else { return [] }
            return Knob.all.filter { environment[$0] != nil && $0.readBy.isDisjoint(with: state.frontDoors) }
        }
    }

    /// Writes the summary (``CampaignSummary``), names the knobs no campaign read, and fails
    /// the process when the environment's token fitted none of the scenarios explored.
    private func finish() {
        let (entries, fitted, missed, environment) = lock.withLockDirectly {
            (state.entries, state.fitted, state.missed, state.environment)
        }
        guard let environment else { return }
        if !entries.isEmpty {
            CampaignSummary.finish(entries, reportPath: environment[.report])
        }
        let unread = unreadKnobs
        if !unread.isEmpty {
            FileHandle.standardError.write(Data((CampaignText.unread(unread) + "\n").utf8))
        }
        if fitted == 0, !missed.isEmpty {
            let message = CampaignText.replayFittedNothing(token: environment[.replay] ?? "", missed: missed)
            FileHandle.standardError.write(Data((message + "\n").utf8))
            _exit(EXIT_FAILURE)
        }
    }
}
