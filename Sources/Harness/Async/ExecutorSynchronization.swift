import Primitives

/// The task executor's mutex and conditions (``AsyncServices``), which an execution that
/// ended leaves for the next on its runner: under the harness they hold no state of their
/// own (the model does), and making them (a pthread object each) cost an actor scenario
/// about 3 % of its time. An execution leaves them only once every thread it ran has ended,
/// so no thread still waits on one (``reset()``).
final class ExecutorSynchronization {
    /// Held by a thread of the execution only to wait on one of the conditions, or when a
    /// thread in a non-preemptible region can run (``AsyncServices``).
    let mutex = SeamMutex()
    /// Signalled once per queued `MainActor` job, and broadcast when the main lane may exit.
    let mainJobQueued = ExecutorCondition()
    /// Broadcast when a timer is added and when the timer thread may exit.
    let timersChanged = ExecutorCondition()
    /// The mutex and conditions, as the execution knows the harness's own synchronization:
    /// made once, not for each execution that uses them.
    let objects: [ObjectIdentifier]
    private let conditions: [ExecutorCondition]

    init() {
        conditions = [mainJobQueued, timersChanged]
        objects = [ObjectIdentifier(mutex)] + conditions.map(\.identity)
    }

    /// Forgets the waiters counted: a thread that ended in a wait, as threads winding down a
    /// failed execution do, did not count itself out.
    func reset() {
        for condition in conditions { condition.reset() }
    }
}

/// A condition the executor's threads wait on, which counts its waiters: a signal or a
/// broadcast while none waits changes nothing, and is skipped (each is a seam operation).
/// Touched only as the executor's state is (see ``AsyncServices``).
final class ExecutorCondition {
    private let condition = SeamCondition()
    private var waiting = 0

    /// The condition, as the execution knows the harness's own synchronization.
    var identity: ObjectIdentifier { ObjectIdentifier(condition) }

    /// Waits until `predicate` holds, releasing `mutex`, which the caller holds, meanwhile.
    func wait(on mutex: SeamMutex, until predicate: () -> Bool) {
        waiting += 1
        defer { waiting -= 1 }
        condition.wait(on: mutex, until: predicate)
    }

    /// Waits until signalled or until the clock reaches `deadline`, releasing `mutex`, which
    /// the caller holds, meanwhile.
    func wait(on mutex: SeamMutex, deadline: SeamInstant) -> SeamWaitResult {
        waiting += 1
        defer { waiting -= 1 }
        return condition.wait(on: mutex, deadline: deadline)
    }

    /// Forgets the waiters counted; call when none waits any more.
    func reset() {
        waiting = 0
    }

    func signal() {
        if waiting > 0 { condition.signal() }
    }

    func broadcast() {
        if waiting > 0 { condition.broadcast() }
    }
}
