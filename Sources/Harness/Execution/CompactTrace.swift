import Primitives

/// The steps of one execution as it records them: fixed-size records that hold no reference
/// (a source location is kept as its `StaticString` literal and line), so that appending one
/// copies its bytes and nothing is retained or released. The named ``TraceStep``s are made
/// only when something reads them: a failure's report, the last schedule's token, a
/// replay's divergence.
struct CompactTrace {
    /// One step: each field is ``TraceStep``'s of the same name, but for the location.
    struct Step {
        /// Where a step was taken: the call site's literal and line, or, for a location that
        /// came as text, its index among the trace's ``CompactTrace/textLocations``.
        enum Location {
            case literal(StaticString, line: UInt)
            case text(Int)
        }

        let thread: Int?
        let kind: OperationKind
        let target: TraceTarget?
        let choice: Int?
        let location: Location?
        let task: Int?
        let isBookkeeping: Bool
        var call: DropInCall?
    }

    /// The steps, in the order taken.
    private(set) var steps: [Step] = []
    /// The locations given as text (none from a seam call, whose file ID is a literal).
    private var textLocations: [SeamLocation] = []

    /// A trace with room for `capacity` steps.
    init(capacity: Int) {
        steps.reserveCapacity(capacity)
    }

    /// How many steps were taken.
    var count: Int { steps.count }

    /// Adds a step with ``TraceStep``'s fields.
    mutating func append(
        thread: Int?, kind: OperationKind, target: TraceTarget?, choice: Int?, location: SeamLocation?, task: Int?,
        isBookkeeping: Bool, call: DropInCall?
    ) {
        let kept: Step.Location? = location.map { location in
            if let literal = location.fileIDLiteral { return .literal(literal, line: location.line) }
            textLocations.append(location)
            return .text(textLocations.count - 1)
        }
        steps.append(
            Step(
                thread: thread, kind: kind, target: target, choice: choice, location: kept, task: task,
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
            location: step.location.map(seamLocation), task: step.task, isBookkeeping: step.isBookkeeping,
            call: step.call)
    }

    /// Every step, named.
    var named: [TraceStep] {
        steps.indices.map { self[$0] }
    }

    private func seamLocation(_ location: Step.Location) -> SeamLocation {
        switch location {
        case .literal(let fileID, let line): SeamLocation(fileID: fileID, line: line)
        case .text(let index): textLocations[index]
        }
    }
}
