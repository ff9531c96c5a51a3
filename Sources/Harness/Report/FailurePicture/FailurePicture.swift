/// A picture of a failed execution: a self-contained HTML page (no scripts, no external
/// assets, no network) with a lane per thread, every step with its source location, the
/// conflicting accesses highlighted and joined, and, for a deadlock, who waits for whom.
///
/// The picture is a pure function of the failure: the lanes, ``conflicts`` and ``waitsFor``
/// are values computed from ``HarnessFailure/trace`` and ``HarnessFailure/reason``, and
/// ``html`` draws them. ``Harness/explore(_:options:sourceLocation:_:)`` attaches the page to
/// the issue it records, as `harness-N.html` beside `harness-N.txt`.
///
/// Every user string (the scenario's name, messages, errors) is HTML-escaped. The page's size
/// is linear in the trace (measured: 165 bytes a step for a spinning thread, 222 for three
/// threads handing a mutex around); runs of steps with nothing drawn on them collapse into a
/// `<details>` element that a click expands, and the last steps are always shown.
public struct FailurePicture: Sendable {
    /// The failure drawn.
    public let failure: HarnessFailure
    /// The lanes, in the order drawn: the scheduler's (when it took steps) first, then the
    /// threads by number, including a thread the failure names that took no step, then the
    /// tasks; never an executor lane's (its steps that ran no task's job are not drawn).
    public let lanes: [Lane]
    /// The conflicting accesses of the trace, ordered by their later step (see ``Conflict``
    /// for which pairs count).
    public let conflicts: [Conflict]
    /// For a deadlock, or threads that could not finish: who waits for whom.
    public let waitsFor: [WaitEdge]
    /// What the failure says about each lane (the failed check, the error thrown, what a
    /// blocked thread waits for), drawn below the lane's last step.
    public let notes: [Note]

    /// Computes the picture of `failure`; linear in the length of its trace.
    public init(_ failure: HarnessFailure) {
        self.failure = failure
        // The executor's own steps draw no lane; a job's tasks are drawn in the first one's.
        var lanes = Set(failure.trace.filter { !$0.isBookkeeping }.map { Lane(of: $0, taskNames: failure.taskNames) })
        lanes.formUnion(
            failure.taskJobPlaces.values.compactMap(\.first).map { .task($0.task, named: failure.taskNames[$0.task]) }
        )
        let notes = Self.notes(for: failure.reason, stepLanes: lanes)
        lanes.formUnion(notes.map(\.lane))
        self.lanes = lanes.sorted()
        self.notes = notes
        conflicts = Self.conflicts(in: failure.trace)
        waitsFor = Self.waitsFor(failure.reason, trace: failure.trace)
    }

    /// The page.
    public var html: String {
        PictureDocument(picture: self).render()
    }
}

extension HarnessFailure {
    /// The failure drawn as a self-contained HTML page: see ``FailurePicture``.
    public var picture: FailurePicture { FailurePicture(self) }
}
