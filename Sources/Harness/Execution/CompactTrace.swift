import Primitives

/// The steps of one execution as it records them: fixed-size records that hold no reference
/// (a ``SeamLocation`` is a plain value), so that appending one copies its bytes and nothing
/// is retained or released. The named ``TraceStep``s are made
/// only when something reads them: a failure's report, the last schedule's token, a
/// replay's divergence.
struct CompactTrace {
    /// One step: each field is ``TraceStep``'s of the same name.
    struct Step {
        let thread: Int?
        let kind: OperationKind
        let target: TraceTarget?
        let choice: Int?
        let location: SeamLocation?
        let task: Int?
        /// Whether the step is the harness's own by what it did (a lane's, outside any
        /// task's job; a drop-in's insides outside its call). One taken in the harness's own
        /// code is too, found when the step is named (``isHarnessCode(_:)``): a step's
        /// location is not read while the execution runs.
        let isBookkeeping: Bool
        var call: DropInCall?
    }

    /// Whether `location` is in the harness's own code, whose steps are bookkeeping.
    static func isHarnessCode(_ location: SeamLocation?) -> Bool {
        location?.fileIDHasPrefix("Harness/") == true
    }

    /// The steps, in the order taken.
    private(set) var steps: [Step] = []

    /// A trace with room for at least `capacity` steps, recorded into `storage`, which must be
    /// empty (an earlier trace's, emptied keeping its capacity).
    init(storage: [Step] = [], capacity: Int) {
        precondition(storage.isEmpty, "a trace begins with no steps")
        steps = storage
        steps.reserveCapacity(capacity)
    }

    /// How many steps were taken.
    var count: Int { steps.count }

    /// Adds a step with ``TraceStep``'s fields.
    mutating func append(
        thread: Int?, kind: OperationKind, target: TraceTarget?, choice: Int?, location: SeamLocation?, task: Int?,
        isBookkeeping: Bool, call: DropInCall?
    ) {
        steps.append(
            Step(
                thread: thread, kind: kind, target: target, choice: choice, location: location, task: task,
                isBookkeeping: isBookkeeping, call: call))
    }

    /// Replaces the call that step `index` began with `call`.
    mutating func setCall(_ call: DropInCall, ofStep index: Int) {
        steps[index].call = call
    }

    /// Step `index`, named.
    subscript(index: Int) -> TraceStep {
        let step = steps[index]
        return TraceStep(
            thread: step.thread, kind: step.kind, target: step.target, choice: step.choice,
            location: step.location, task: step.task,
            isBookkeeping: step.isBookkeeping || Self.isHarnessCode(step.location), call: step.call)
    }

    /// Every step, named.
    var named: [TraceStep] {
        steps.indices.map { self[$0] }
    }
}
