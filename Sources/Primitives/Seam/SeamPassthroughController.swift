import CShim
import Dispatch

/// A controller that performs every seam operation for real, exactly as an uncontrolled
/// thread would: the base for observers that record or trace what code does, without
/// changing how it runs.
///
/// Subclass it, override the operations you observe, and call `super` to perform them.
/// Threads spawned under it are numbered from 1 in spawn order.
open class SeamPassthroughController: SeamController, @unchecked Sendable {
    private let nextThread = SeamAtomic(1)

    /// Creates a pass-through controller.
    public init() {}

    open func lock(_ mutex: SeamMutex, at location: SeamLocation) {
        mutex.lockDirectly()
    }

    open func tryLock(_ mutex: SeamMutex, at location: SeamLocation) -> Bool {
        mutex.tryLockDirectly()
    }

    open func unlock(_ mutex: SeamMutex, at location: SeamLocation) {
        mutex.unlockDirectly()
    }

    open func wait(
        on condition: SeamCondition,
        releasing mutex: SeamMutex,
        deadline: SeamInstant?,
        at location: SeamLocation
    ) -> SeamWaitResult {
        condition.waitDirectly(on: mutex, deadline: deadline)
    }

    open func signal(_ condition: SeamCondition, at location: SeamLocation) {
        condition.signalDirectly()
    }

    open func broadcast(_ condition: SeamCondition, at location: SeamLocation) {
        condition.broadcastDirectly()
    }

    open func willAccessAtomic(_ cell: AnyObject, _ access: SeamAtomicAccess, at location: SeamLocation) {}

    open func threadWillSpawn(at location: SeamLocation) -> SeamThreadID {
        SeamThreadID(rawValue: Int(truncatingIfNeeded: nextThread.cell.add(1, ordering: .relaxed).oldValue))
    }

    open func threadSpawnFailed(_ thread: SeamThreadID) {}

    open func threadDidStart(_ thread: SeamThreadID) {}

    open func threadWillExit(_ thread: SeamThreadID) {}

    open func join(_ thread: SeamThreadID, at location: SeamLocation) {}

    open func willCancel(_ thread: SeamThreadID, at location: SeamLocation) {}

    open func cancellationPoint(at location: SeamLocation) {}

    open func yield(at location: SeamLocation) {
        sched_yield()
    }

    open func now() -> SeamInstant {
        .realNow
    }

    open func sleep(until deadline: SeamInstant, at location: SeamLocation) {
        let error = cshim_sleep_until_monotonic(deadline.nanoseconds)
        precondition(error == 0, "sleep(until:) failed with error \(error)")
    }

    open func willResumeContinuation(at location: SeamLocation) {}

    open func enterNonPreemptibleRegion() {}

    open func exitNonPreemptibleRegion() {}

    open func wake(at deadline: SeamInstant, _ wake: @escaping @Sendable () -> Void) {
        let delay = SeamInstant.realNow.duration(to: deadline)
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .nanoseconds(Int(max(delay.nanosecondsClamped, 0))), execute: wake)
    }
}
