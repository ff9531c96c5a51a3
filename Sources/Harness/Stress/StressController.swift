import CShim
import Primitives

/// The controller of a stress iteration's threads: it performs every seam operation for
/// real, as an uncontrolled thread would, and adds three things. It makes the iteration
/// findable from its threads (``StressIteration/current``), including the threads the
/// primitives start, which inherit it; it opens the start gate as soon as the root thread
/// may be about to wait for another (it locks, waits, joins, yields, sleeps or loads an
/// atomic); it gives each thread the run's crash note; and once the iteration is abandoned
/// as hung, it turns a thread's yields and atomic loads into short sleeps, so a thread
/// spinning forever does not take a processor from the rest of the process.
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
        return super.wait(on: condition, releasing: mutex, deadline: deadline, at: location)
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
        StressCrashNote.uninstall()
    }
}
