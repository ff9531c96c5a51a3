import Primitives

/// What reports call a task the scenario started: the name it was given, or the place that
/// started it. Kept as a value while the execution runs, so that a task's name is written out
/// only when a report reads it, not once for every task of every execution.
enum TaskName: Sendable, Hashable {
    /// The name given to ``Scenario/task(name:file:line:_:)``, or to a task the harness starts.
    case given(String)
    /// Where an unnamed task was started.
    case startedAt(SeamLocation)

    /// The name as reports show it: the given name, or the file and line that started the
    /// task (`BoxOfficeTests.swift:27`).
    var text: String {
        switch self {
        case .given(let name): name
        case .startedAt(let place): "\(place.fileName):\(place.line)"
        }
    }
}
