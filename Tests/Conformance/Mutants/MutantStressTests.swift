import Fixtures
import Foundation
import Harness
import Testing

/// The mutants on real threads: each in a child process, since a mutant may leave threads
/// behind (defect 7 never joins its threads) or hang (its threads stay blocked). Not under
/// ThreadSanitizer: it reports those threads as leaks when the child exits, and does not
/// survive the mutants that kill threads. Whether stress sees a forbidden outcome at all
/// depends on how the real threads interleave, so the gate asserts only what follows from
/// what it saw; how often stress alone catches each mutant is measured by the fuzz suite
/// `MutantStress` (`Tests/Fuzz/Stress/MutantStress.swift`).
@Suite(
    "Release gate under stress: mutants on real threads, escalated to replayable schedules",
    .serialized,
    .disabled(
        if: RuntimeSanitizer.thread,
        "the mutants hang and leak threads on purpose, which ThreadSanitizer reports at exit")
)
struct MutantStressTests {
    @Test("the first forbidden outcome stress sees escalates to a token that replays it", arguments: Mutant.all)
    func underStress(mutant: Mutant) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [defect = mutant.defect as Int] in
            await MutantUnderStress.check(defect: defect)
        }
        // A child that crashed recorded no issue of its own: what it printed (the crash
        // reporter's schedule and backtrace) is the only account of why.
        if let result, result.exitStatus != .exitCode(EXIT_SUCCESS) {
            let printed = String(decoding: result.standardErrorContent.suffix(16_384), as: UTF8.self)
            Issue.record("the child's standard error ended with:\n\(printed)")
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
            for escalation in report.escalations {
                if case .leakedThreads = escalation.target { continue }
                guard let failure = escalation.result.failure else {
                    problems.append("no schedule found for '\(escalation.target)'")
                    continue
                }
                let replayed = try Harness.replayStress(mutant.name, token: failure.token, test)
                if replayed.failure?.reason != failure.reason || replayed.failure?.trace != failure.trace {
                    problems.append(
                        "replaying \(failure.token) did not fail identically: "
                            + "\(String(describing: replayed.failure?.reason))"
                    )
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
