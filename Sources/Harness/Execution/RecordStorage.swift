import Primitives

/// The storage of an execution's steps and decisions, handed from one execution of a worker
/// to a later one, so that an execution that takes no more steps than those before it
/// allocates none for them: a decision allocates nothing.
///
/// An execution takes arrays when it begins and gives its own back when it hands its record
/// on. The record shares them while it lives, and the exploration keeps the last record until
/// the next replaces it; so an execution takes the arrays given back the time before last,
/// which nothing else holds by then, and empties them in place. Arrays still shared (a
/// failure's record, kept) are left to their holder: the execution gets new ones of the same
/// capacity. Locked: an execution that stalled gives its arrays back from its watcher's
/// thread, perhaps while the next execution takes some.
final class RecordStorage: Sendable {
    private struct Arrays {
        var steps: [CompactTrace.Step] = []
        var decisions: [ScheduleDecision] = []
    }

    /// The arrays given back last, and those given back the time before.
    private let given = DirectlyLocked((last: Arrays?.none, beforeLast: Arrays?.none))

    /// The arrays given back the time before last, emptied keeping their capacity; empty
    /// arrays until two were given back.
    func take() -> (steps: [CompactTrace.Step], decisions: [ScheduleDecision]) {
        var arrays = given.withLock { given in
            defer { given.beforeLast = nil }
            return given.beforeLast ?? Arrays()
        }
        arrays.steps.removeAll(keepingCapacity: true)
        arrays.decisions.removeAll(keepingCapacity: true)
        return (arrays.steps, arrays.decisions)
    }

    /// Keeps `steps` and `decisions` for the execution after next to take.
    func giveBack(steps: [CompactTrace.Step], decisions: [ScheduleDecision]) {
        given.withLock { given in
            given.beforeLast = given.last
            given.last = Arrays(steps: steps, decisions: decisions)
        }
    }
}
