import CShim
import Primitives

/// The controller of a stress iteration's threads: it performs every seam operation for
/// real, as an uncontrolled thread would, and more. It makes the iteration
/// findable from its threads (``StressIteration/current``), including the threads the
/// primitives start, which inherit it; it opens the start gate as soon as the root thread
/// may be about to wait for another (it locks, waits, joins, yields, sleeps or loads an
/// atomic); it gives each thread the run's crash note; once the iteration is abandoned
/// as hung, it turns a thread's yields and atomic loads into short sleeps, so a thread
/// spinning forever does not take a processor from the rest of the process; and, for a
/// scenario whose calls may wait for good, it counts the untimed condition waits and their
/// wake-ups (``StressWaits``), and ends the waiting threads the scenario abandons.
final class StressController: SeamPassthroughController, @unchecked Sendable {
    let iteration: StressIteration
    private let crashNote: StressCrashNote

    init(iteration: StressIteration, crashNote: StressCrashNote) {
        self.iteration = iteration
        self.crashNote = crashNote
    }

    @available(*, noasync, message: "a task may change threads between suspension points")
    private func rootMayWait() {
        if Seam.currentThread == StressIteration.root { iteration.openGate() }
    }

    override func lock(_ mutex: SeamMutex, at location: SeamLocation) {
        rootMayWait()
        super.lock(mutex, at: location)
    }

    override func wait(
        on condition: SeamCondition,
        releasing mutex: SeamMutex,
        deadline: SeamInstant?,
        at location: SeamLocation
    ) -> SeamWaitResult {
        rootMayWait()
        guard deadline == nil, iteration.isCountingWaits, let thread = Seam.currentThread else {
            return super.wait(on: condition, releasing: mutex, deadline: deadline, at: location)
        }
        switch iteration.willWait(thread, on: condition, releasing: mutex) {
        case .untracked:
            return super.wait(on: condition, releasing: mutex, deadline: deadline, at: location)
        case .leaves:
            leave(releasing: mutex, at: location)
        case .waits:
            let result = super.wait(on: condition, releasing: mutex, deadline: deadline, at: location)
            if iteration.didWait(thread, on: condition) { leave(releasing: mutex, at: location) }
            return result
        }
    }

    /// Ends the calling thread, a waiting thread the scenario abandoned
    /// (``StressIteration/abandonWaitingThreads()``), instead of returning from its wait: it
    /// unlocks the wait's mutex, so that the other abandoned threads can leave theirs too.
    private func leave(releasing mutex: SeamMutex, at location: SeamLocation) -> Never {
        super.unlock(mutex, at: location)
        pthread_exit(nil)
    }

    override func signal(_ condition: SeamCondition, at location: SeamLocation) {
        iteration.wakes(condition, all: false)
        super.signal(condition, at: location)
    }

    override func broadcast(_ condition: SeamCondition, at location: SeamLocation) {
        iteration.wakes(condition, all: true)
        super.broadcast(condition, at: location)
    }

    override func join(_ thread: SeamThreadID, at location: SeamLocation) {
        rootMayWait()
        super.join(thread, at: location)
    }

    override func willAccessAtomic(_ cell: AnyObject, _ access: SeamAtomicAccess, at location: SeamLocation) {
        guard access == .load else { return }
        rootMayWait()
        if iteration.isAbandoned { idle(at: location) }
    }

    override func yield(at location: SeamLocation) {
        rootMayWait()
        if iteration.isAbandoned { return idle(at: location) }
        super.yield(at: location)
    }

    /// Sleeps where a thread of an abandoned iteration would spin.
    private func idle(at location: SeamLocation) {
        super.sleep(until: .realNow.advanced(by: .milliseconds(10)), at: location)
    }

    override func sleep(until deadline: SeamInstant, at location: SeamLocation) {
        rootMayWait()
        super.sleep(until: deadline, at: location)
    }

    override func threadDidStart(_ thread: SeamThreadID) {
        crashNote.install()
    }

    override func threadWillExit(_ thread: SeamThreadID) {
        iteration.threadEnded(thread)
        StressCrashNote.uninstall()
    }
}
