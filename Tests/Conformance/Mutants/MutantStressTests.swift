import Fixtures
import Foundation
import Harness
import Testing

/// The mutants on real threads: each in a child process, since a mutant may leave threads
/// behind (defect 7 never joins its threads) or hang (its threads stay blocked). Not under
/// ThreadSanitizer: it reports those threads as leaks when the child exits, and does not
/// survive the mutants that kill threads.
@Suite(
    "Release gate under stress: mutants on real threads, escalated to replayable schedules",
    .serialized,
    .disabled(if: RuntimeSanitizer.thread, "the mutants hang and leak threads on purpose, which ThreadSanitizer reports at exit")
)
struct MutantStressTests {
    @Test("stress catches what it must; the first forbidden outcome escalates to a token that replays it", arguments: Mutant.all)
    func underStress(mutant: Mutant) async {
        await #expect(processExitsWith: .success) { [defect = mutant.defect as Int] in
            await MutantUnderStress.check(defect: defect)
        }
    }
}

/// The child process's side of ``MutantStressTests``.
enum MutantUnderStress {
    /// The default budget of a stress suite; a hang is noticed after two seconds. The search
    /// looks for the first forbidden outcome seen, and allows the harness's usual 20 s
    /// without a step before it calls an execution stalled, as the full test run keeps two
    /// cores busy with other processes.
    static let options = StressOptions(
        timeBudget: .seconds(1),
        hangTimeout: .seconds(2),
        escalation: EscalationOptions(stallTimeout: .seconds(20), maxTargets: 1)
    )

    /// The mutants stress alone catches in every run, by a wide margin (README's gate section:
    /// 10 of 10 runs, hundreds of forbidden iterations a run or a hang in the first). The
    /// others it catches often (10: about ten forbidden iterations a run), sometimes (3) or
    /// never (11: only a spurious wake-up shows it, which real condition variables almost
    /// never give).
    static let alwaysCaught: Set<Int> = [4, 5, 7, 12, 13, 0, 15]

    /// The schedule a trace followed: who took each step, what it did, where and with which
    /// choice. Leaves out the names of the objects: the harness names an object on first
    /// sight by its identity, and a freed object's address can come back as another object
    /// of the same kind, so a name can differ between two runs of one schedule.
    static func schedule(_ trace: [TraceStep]) -> [String] {
        trace.map { "\($0.thread.map(String.init) ?? "-") \($0.kind) \($0.choice.map(String.init) ?? "-") \($0.location.map(String.init(describing:)) ?? "-")" }
    }

    /// Runs mutant `defect` under stress, escalates, replays each token found, and ends the
    /// process: successfully when everything held, otherwise after recording an issue (which
    /// the parent test reports) that says what did not, with the stress report.
    static func check(defect: Int) async -> Never {
        let mutant = Mutant.all.first { $0.defect == defect }!
        let test = StressTest(mutant.scenario)
        var problems: [String] = []
        var reportText = ""
        do {
            let report = try await Harness.runStress(mutant.name, options: options, test)
            reportText = report.text
            if report.passed, alwaysCaught.contains(defect) {
                problems.append("stress alone no longer catches \(mutant)")
            }
            for escalation in report.escalations {
                if case .leakedThreads = escalation.target { continue }
                guard let failure = escalation.result.failure else {
                    problems.append("no schedule found for '\(escalation.target)'")
                    continue
                }
                let replayed = try Harness.replayStress(mutant.name, token: failure.token, test)
                if replayed.failure?.reason != failure.reason || replayed.failure.map({ schedule($0.trace) }) != schedule(failure.trace) {
                    problems.append("replaying \(failure.token) did not fail identically: \(String(describing: replayed.failure?.reason))")
                }
            }
        } catch {
            problems.append("\(error)")
        }
        guard problems.isEmpty else {
            Issue.record(Comment(rawValue: problems.joined(separator: "\n") + "\n" + reportText))
            exit(EXIT_FAILURE)
        }
        exit(EXIT_SUCCESS)
    }
}
