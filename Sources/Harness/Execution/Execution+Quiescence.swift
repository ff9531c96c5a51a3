import Primitives

/// What a scenario whose calls may wait for good (a generated scenario with blocking
/// operations) asks of its execution: to go on once nothing else can, and to end without a
/// failure while threads still wait.
extension Execution {
    /// Returns once every other thread of the execution has finished or waits for good: none
    /// can run, and no deadline (a timed wait, a sleep) is left to wake one. A scheduling
    /// point of the calling thread at `location`, recorded as an ``OperationKind/quiesce``
    /// step; while the execution winds down it returns at once.
    func awaitOthersQuiescent(at location: SeamLocation) {
        point(.quiesce, location)
    }

    /// Ends the execution without a failure, abandoning the threads that still wait: they
    /// exit without returning from their waits, and the caller's later seam operations are
    /// performed at once, unrecorded (see ``ExecutionModel/abandonWaitingThreads()``); the
    /// tasks that wait for good count as ended (``AsyncServices/abandonSuspendedTasks()``).
    /// Call from a controlled thread, after ``awaitOthersQuiescent(at:)``.
    func abandonWaitingThreads() {
        asyncServices?.abandonSuspendedTasks()
        withCancellationDisabled { _ in model.abandonWaitingThreads() }
    }
}
