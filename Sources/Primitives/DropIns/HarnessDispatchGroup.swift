import Dispatch

/// A drop-in for `DispatchGroup`: `enter`, `leave`, `wait`, `wait(timeout:)` and
/// `notify(queue:execute:)`. The `DispatchGroup` calls behind one branch in production;
/// modelled with seam operations on a thread a harness controls, where timeouts are on the
/// virtual clock.
///
/// As with Dispatch, a `leave` without a matching `enter` is a programmer error and traps.
/// A group is used either in a scenario or outside one (see ``HarnessDispatchQueue``).
public final class HarnessDispatchGroup: @unchecked Sendable {
    /// The real group, used in production.
    public let base = DispatchGroup()
    private let mutex = SeamMutex()
    private let empty = SeamCondition()
    /// Entered and not yet left, under a controller.
    private var outstanding = 0
    /// Blocks to submit when the group empties, under a controller.
    private var notifications: [(queue: HarnessDispatchQueue, work: @Sendable () -> Void)] = []

    /// Creates an empty group.
    public init() {}

    /// Counts one more piece of work in the group.
    @inlinable
    public func enter(file: StaticString = #fileID, line: UInt = #line) {
        guard Seam.controllerForCurrentThread() != nil else { return base.enter() }
        enterControlled(file: file, line: line)
    }

    @usableFromInline
    func enterControlled(file: StaticString, line: UInt) {
        Seam.performing(SeamCall(.group, .enter), on: self, insides: insides, file: file, line: line) {
            mutex.withLock(file: file, line: line) { outstanding += 1 }
        }
    }

    /// The seam objects that carry out the group's calls, which reports show as the calls.
    private var insides: [AnyObject] { [mutex, empty] }

    /// Counts one piece of work as done; when none is left, wakes the waiters and submits
    /// the blocks given to ``notify(queue:file:line:execute:)``.
    @inlinable
    public func leave(file: StaticString = #fileID, line: UInt = #line) {
        guard Seam.controllerForCurrentThread() != nil else { return base.leave() }
        leaveControlled(file: file, line: line)
    }

    @usableFromInline
    func leaveControlled(file: StaticString, line: UInt) {
        Seam.performing(SeamCall(.group, .leave), on: self, insides: insides, file: file, line: line) {
            finishWork(file: file, line: line)
        }
    }

    /// Counts one piece of work as done, and does what the group's emptying does.
    private func finishWork(file: StaticString, line: UInt) {
        let due = mutex.withLock(file: file, line: line) {
            () -> [(queue: HarnessDispatchQueue, work: @Sendable () -> Void)] in
            precondition(outstanding > 0, "HarnessDispatchGroup.leave() without a matching enter()")
            outstanding -= 1
            guard outstanding == 0 else { return [] }
            empty.broadcast(file: file, line: line)
            defer { notifications = [] }
            return notifications
        }
        for (queue, work) in due { queue.async(file: file, line: line, execute: work) }
    }

    /// Waits until every piece of work entered has left.
    public func wait(file: StaticString = #fileID, line: UInt = #line) {
        guard Seam.currentController != nil else { return base.wait() }
        Seam.performing(SeamCall(.group, .wait), on: self, insides: insides, file: file, line: line) {
            mutex.withLock(file: file, line: line) {
                empty.wait(on: mutex, until: { outstanding == 0 }, file: file, line: line)
            }
        }
    }

    /// Waits until every piece of work entered has left, or until `timeout`; says which. A
    /// timeout already reached, such as `.now()`, does not wait.
    public func wait(timeout: DispatchTime, file: StaticString = #fileID, line: UInt = #line) -> DispatchTimeoutResult {
        guard Seam.currentController != nil else { return base.wait(timeout: timeout) }
        let deadline = HarnessDispatch.deadline(timeout)
        let call = SeamCall(.group, .wait)
        return Seam.performing(call, on: self, insides: insides, file: file, line: line, outcome: SeamCall.Outcome.init)
        {
            mutex.withLock(file: file, line: line) {
                guard let deadline else {
                    empty.wait(on: mutex, until: { outstanding == 0 }, file: file, line: line)
                    return .success
                }
                return DispatchTimeoutResult(
                    empty.wait(on: mutex, until: { outstanding == 0 }, deadline: deadline, file: file, line: line))
            }
        }
    }

    /// Submits `work` to `queue` once the group is empty: now if it is.
    public func notify(
        qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [],
        queue: HarnessDispatchQueue,
        file: StaticString = #fileID,
        line: UInt = #line,
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        guard Seam.currentController != nil else {
            return base.notify(qos: qos, flags: flags, queue: queue.base, execute: work)
        }
        let runNow = Seam.performing(SeamCall(.group, .notify), on: self, insides: insides, file: file, line: line) {
            mutex.withLock(file: file, line: line) {
                if outstanding == 0 { return true }
                notifications.append((queue, work))
                return false
            }
        }
        if runNow { queue.async(file: file, line: line, execute: work) }
    }
}
