import Primitives

/// One seam operation as the recording controller saw it.
struct RecordedOperation: Sendable, Hashable, CustomStringConvertible {
    enum Kind: String, Sendable, Hashable {
        case lock, tryLock, unlock, wait, signal, broadcast, atomic
        case spawn, start, exit, join, cancel, cancellationPoint
        case yield, now, sleep, resume
    }

    let kind: Kind
    let thread: SeamThreadID?
    let location: SeamLocation?

    var description: String {
        "\(thread.map(String.init(describing:)) ?? "-") \(kind) \(location.map(String.init(describing:)) ?? "")"
    }
}

/// Performs every seam operation for real and records it: the proof that a primitive
/// touches shared state only through the seam.
///
/// The log is guarded by a `pthread_mutex` rather than a `Synchronization.Mutex`: under
/// contention that one hands the lock over in its uninstrumented futex path, which
/// ThreadSanitizer cannot see, and it reports the appends as racing.
final class RecordingController: SeamPassthroughController, @unchecked Sendable {
    private let logMutex = SeamMutex()
    private var log: [RecordedOperation] = []

    /// Everything recorded so far.
    var operations: [RecordedOperation] { logMutex.withLockDirectly { log } }

    /// The kinds recorded so far.
    var kinds: Set<RecordedOperation.Kind> { Set(operations.map(\.kind)) }

    /// Runs `body` on the calling thread under this controller, as thread 0.
    func record<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Seam.withController(self, thread: SeamThreadID(rawValue: 0), body)
    }

    private func note(_ kind: RecordedOperation.Kind, _ location: SeamLocation?, thread: SeamThreadID? = nil) {
        let entry = RecordedOperation(kind: kind, thread: thread ?? Seam.currentThread, location: location)
        logMutex.withLockDirectly { log.append(entry) }
    }

    override func lock(_ mutex: SeamMutex, at location: SeamLocation) {
        note(.lock, location)
        super.lock(mutex, at: location)
    }

    override func tryLock(_ mutex: SeamMutex, at location: SeamLocation) -> Bool {
        note(.tryLock, location)
        return super.tryLock(mutex, at: location)
    }

    override func unlock(_ mutex: SeamMutex, at location: SeamLocation) {
        note(.unlock, location)
        super.unlock(mutex, at: location)
    }

    override func wait(
        on condition: SeamCondition,
        releasing mutex: SeamMutex,
        deadline: SeamInstant?,
        at location: SeamLocation
    ) -> SeamWaitResult {
        note(.wait, location)
        return super.wait(on: condition, releasing: mutex, deadline: deadline, at: location)
    }

    override func signal(_ condition: SeamCondition, at location: SeamLocation) {
        note(.signal, location)
        super.signal(condition, at: location)
    }

    override func broadcast(_ condition: SeamCondition, at location: SeamLocation) {
        note(.broadcast, location)
        super.broadcast(condition, at: location)
    }

    override func willAccessAtomic(_ cell: AnyObject, _ access: SeamAtomicAccess, at location: SeamLocation) {
        note(.atomic, location)
    }

    override func threadWillSpawn(at location: SeamLocation) -> SeamThreadID {
        note(.spawn, location)
        return super.threadWillSpawn(at: location)
    }

    override func threadDidStart(_ thread: SeamThreadID) {
        note(.start, nil, thread: thread)
    }

    override func threadWillExit(_ thread: SeamThreadID) {
        note(.exit, nil, thread: thread)
    }

    override func join(_ thread: SeamThreadID, at location: SeamLocation) {
        note(.join, location)
    }

    override func willCancel(_ thread: SeamThreadID, at location: SeamLocation) {
        note(.cancel, location)
    }

    override func cancellationPoint(at location: SeamLocation) {
        note(.cancellationPoint, location)
    }

    override func yield(at location: SeamLocation) {
        note(.yield, location)
        super.yield(at: location)
    }

    override func now() -> SeamInstant {
        note(.now, nil)
        return super.now()
    }

    override func sleep(until deadline: SeamInstant, at location: SeamLocation) {
        note(.sleep, location)
        super.sleep(until: deadline, at: location)
    }

    override func willResumeContinuation(at location: SeamLocation) {
        note(.resume, location)
    }
}
