import Primitives

/// The storage of an execution's steps and decisions, and of its tasks' names and job points,
/// handed from one execution of a worker to a later one, so that an execution that takes no
/// more steps and runs no more tasks than those before it allocates none for them: a decision
/// allocates nothing.
///
/// An execution takes arrays when it begins and gives its own back when it hands its record
/// on. The record shares them while it lives, and the exploration keeps the last record until
/// the next replaces it; so an execution takes the arrays given back the time before last,
/// which nothing else holds by then, and empties them in place. Arrays still shared (a
/// failure's record, kept) are left to their holder: the execution gets new ones of the same
/// capacity. Locked: an execution that stalled gives its arrays back from its watcher's
/// thread, perhaps while the next execution takes some.
///
/// A host whose executions are over leaves its storage for the next host (``reused()``,
/// ``keepForReuse()``): an exploration's first executions, and each of the explorations a
/// campaign or a benchmark runs one after another, record into arrays that earlier executions
/// grew. At most ``spareLimit`` are kept (hosts beyond them start with empty arrays); each
/// holds the arrays of at most two executions.
final class RecordStorage: Sendable {
    /// What an execution records into, and its record shares.
    struct Arrays {
        var steps: [CompactTrace.Step] = []
        var decisions: [ScheduleDecision] = []
        var taskNames: [TaskName?] = []
        var jobPoints: [TaskJobRun] = []

        /// Empties every array, keeping its capacity.
        fileprivate mutating func empty() {
            steps.empty()
            decisions.empty()
            taskNames.empty()
            jobPoints.empty()
        }
    }

    /// The arrays given back last, and those given back the time before.
    private let given = DirectlyLocked((last: Arrays?.none, beforeLast: Arrays?.none))

    /// The storage of hosts whose executions are over, for the next hosts.
    private static let spare = DirectlyLocked<[RecordStorage]>([])
    /// The most storage kept for the next hosts.
    private static var spareLimit: Int { 8 }

    /// Storage a host left, or new storage.
    static func reused() -> RecordStorage {
        spare.withLock { $0.popLast() } ?? RecordStorage()
    }

    /// Leaves this storage for the next host; its own host runs no more executions. The
    /// arrays given back last are the next to take: the record that shared them ended with
    /// the exploration, unless it was kept.
    func keepForReuse() {
        given.withLock { given in
            if let last = given.last { (given.beforeLast, given.last) = (last, nil) }
        }
        Self.spare.withLock { spare in
            if spare.count < Self.spareLimit, !spare.contains(where: { $0 === self }) { spare.append(self) }
        }
    }

    /// The arrays given back the time before last, emptied keeping their capacity; empty
    /// arrays until two were given back.
    func take() -> Arrays {
        // Moved out, not copied and then let go: the copy retained each array, and letting go
        // released it.
        var arrays = given.withLock { given in given.beforeLast.take() ?? Arrays() }
        arrays.empty()
        return arrays
    }

    /// Keeps `arrays` for the execution after next to take.
    func giveBack(_ arrays: consuming Arrays) {
        given.withLock { given in
            given.beforeLast = given.last.take()
            given.last = arrays
        }
    }
}
