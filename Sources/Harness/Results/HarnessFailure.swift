/// A failed execution: why it failed, the token that replays it, and its schedule.
public struct HarnessFailure: Error, Sendable, Codable {
    /// The scenario's name.
    public let scenario: String
    /// Why the execution failed.
    public let reason: ExecutionFailure
    /// Replays the execution exactly.
    public let token: ReplayToken
    /// Every step the execution took.
    public let trace: [TraceStep]
    /// The Swift Testing test that found it, when it ran in one: its `Test.ID` without the
    /// source location (`Module.Suite/name()`), which edits above the test do not change.
    public let testID: String?
    /// The names of the tasks whose jobs ran, by their number in ``TraceStep/task``: a
    /// name given to the task, or where ``Scenario/task(name:file:line:_:)`` started it, or
    /// for a task the code created (`Task {}`, `Task.detached`), the file and line that did.
    public let taskNames: [Int: String]
    /// How a replay reproduced the failure; `nil` when exploring found it.
    public let reproduction: ReplayReproduction?
    /// How many times the schedule ran another thread while the running one could go on.
    public let preemptions: Int
    /// The schedule exploring found, when ``trace`` is a shrunk one.
    public let shrunkFrom: ShrinkOrigin?
    /// Where the tasks that ran in each job began and ended in the code under test, by the
    /// index in ``trace`` of the step that ended the job (a lane's ``OperationKind/takeJob``).
    public private(set) var taskJobPlaces: [Int: [TaskJobPlaces]]

    init(
        scenario: String,
        reason: ExecutionFailure,
        token: ReplayToken,
        trace: [TraceStep],
        testID: String?,
        taskNames: [TaskName?] = [],
        preemptions: Int = 0,
        reproduction: ReplayReproduction? = nil,
        shrunkFrom: ShrinkOrigin? = nil,
        taskJobPlaces: [Int: [TaskJobPlaces]] = [:],
        taskCreations: [Int: CodePlace] = [:]
    ) {
        self.scenario = scenario
        self.reason = reason
        self.token = token
        self.trace = trace
        self.testID = testID
        var names = taskCreations.mapValues { "\($0.file):\($0.line)" }
        for (index, name) in taskNames.enumerated() {
            if let name { names[index + 1] = name.text }
        }
        self.taskNames = names
        self.reproduction = reproduction
        self.preemptions = preemptions
        self.shrunkFrom = shrunkFrom
        self.taskJobPlaces = taskJobPlaces
    }

    /// The same failure with its tasks' places `places`, read again from the same steps.
    func withTaskJobPlaces(_ places: [Int: [TaskJobPlaces]]) -> HarnessFailure {
        var failure = self
        failure.taskJobPlaces = places
        return failure
    }
}

/// The schedule a failure was found with, before shrinking.
public struct ShrinkOrigin: Sendable, Hashable, Codable {
    /// Its length in the steps a report shows (``HarnessFailure/shownStepCount``).
    public let steps: Int
    /// Its preemptions.
    public let preemptions: Int
}
