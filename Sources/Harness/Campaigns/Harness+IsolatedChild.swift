import Foundation
import Primitives

/// The child's side of an isolated exploration: it explores, sends its report to the
/// parent on standard error as one line, and ends.
extension Harness {
    /// Explores `scenario` in this child process, sends the report to the parent and exits;
    /// dies with the parent meanwhile. Records the running schedule in the file the parent
    /// named, which it reads should the child die without a report. The harness owns the process's executors here
    /// (``ProcessExecutors``), so every job of the scenario's tasks is its to schedule.
    static func serveParent(
        _ scenario: String,
        options: ExplorationOptions,
        testID: String?,
        environment: EnvironmentSnapshot,
        _ body: @escaping @Sendable (Scenario) throws -> Void
    ) -> Never {
        let recordFile = environment.variables[childRecordVariable]
        ChildChannel.exitWhenParentEnds(removing: recordFile)
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
            ProcessExecutors.takeOver()
        }
        var explorer = Explorer(scenario: scenario, options: options, body: body, testID: testID, wording: .forParent)
        explorer.scheduleRecordFile = recordFile
        ChildChannel.sendHeartbeats(while: explorer.activity)
        let report = explorer.run()
        ChildChannel.send(report)
        _exit(EXIT_SUCCESS)
    }
}
