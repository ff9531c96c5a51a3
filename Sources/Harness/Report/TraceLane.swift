/// Who took a step of a trace, as reports draw it: the scheduler, a thread, or a task.
///
/// The one place that maps a step to its lane (``init(of:taskNames:)``) and names a lane
/// (``label``), for the text report and the picture alike. A step an executor lane took
/// while running a task's job belongs to the task, so reports show tasks, not the threads
/// that happened to run them.
public struct TraceLane: Hashable, Sendable, Comparable, CustomStringConvertible {
    enum Identity: Hashable, Comparable {
        case scheduler
        case thread(Int)
        case task(Int)
    }

    let identity: Identity
    /// The task's name, when it has one; not part of the lane's identity.
    private let name: String?

    /// The scheduler's own steps: advancing the virtual clock.
    public static let scheduler = TraceLane(identity: .scheduler, name: nil)

    /// The lane of thread `number`, as reports number threads (`T0` runs the scenario).
    public static func thread(_ number: Int) -> TraceLane {
        TraceLane(identity: .thread(number), name: nil)
    }

    /// The lane of task `number` (from 1, as ``TraceStep/task`` numbers tasks), unnamed.
    public static func task(_ number: Int) -> TraceLane {
        TraceLane(identity: .task(number), name: nil)
    }

    /// The lane of task `number` (from 1), named `name` (not part of the lane's identity).
    static func task(_ number: Int, named name: String?) -> TraceLane {
        TraceLane(identity: .task(number), name: name)
    }

    /// The lane that took `step`; `taskNames` names tasks by their number from 1.
    public init(of step: TraceStep, taskNames: [Int: String] = [:]) {
        if let task = step.task {
            self.init(identity: .task(task), name: taskNames[task])
        } else {
            self = step.thread.map(TraceLane.thread) ?? .scheduler
        }
    }

    private init(identity: Identity, name: String?) {
        self.identity = identity
        self.name = name
    }

    /// The lane's name as reports spell it: `T2`, `task 1 Counter.swift:12`, or `scheduler`.
    public var label: String {
        switch identity {
        case .scheduler: "scheduler"
        case .thread(let number): "T\(number)"
        case .task(let number): "task \(number)" + (name.map { " \($0)" } ?? "")
        }
    }

    public var description: String { label }

    public static func == (lhs: TraceLane, rhs: TraceLane) -> Bool {
        lhs.identity == rhs.identity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }

    public static func < (lhs: TraceLane, rhs: TraceLane) -> Bool {
        lhs.identity < rhs.identity
    }
}

extension FailurePicture {
    /// Who took a step: see ``TraceLane``.
    public typealias Lane = TraceLane
}
