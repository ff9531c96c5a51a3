import CShim
import Primitives
import Testing

/// A one-shot event that threads wait for, built on the seam's mutex and condition.
///
/// Waiting is not a cancellation point (cancellation is disabled meanwhile), so a body that
/// waits here is never killed inside the wait with the event's mutex held.
final class Event: @unchecked Sendable {
    private let mutex = SeamMutex()
    private let condition = SeamCondition()
    private var fired = false

    /// Sets the event and wakes every waiter.
    func set() {
        mutex.withLock { fired = true }
        condition.broadcast()
    }

    /// Whether the event is set.
    var isSet: Bool { mutex.withLock { fired } }

    /// Waits until the event is set or `timeout` passes; returns whether it is set. The
    /// timeout only keeps a broken test from hanging: tests expect the result to be `true`.
    @discardableResult
    func wait(timeout: Duration = .seconds(30)) -> Bool {
        var previous: Int32 = 0
        pthread_setcancelstate(Int32(PTHREAD_CANCEL_DISABLE), &previous)
        defer {
            var ignored: Int32 = 0
            pthread_setcancelstate(previous, &ignored)
        }
        let deadline = Seam.now().advanced(by: timeout)
        return mutex.withLock { condition.wait(on: mutex, until: { fired }, deadline: deadline) }
    }
}

/// Handler calls in the order they happened, with the kind each was told.
final class ExitLog: Sendable {
    struct Entry: Sendable, Hashable {
        let tag: Int
        let kind: ExitKind
        let onThread: UInt
    }

    private let entries = AtomicBox<[Entry]>([])

    /// A handler that logs `tag`.
    func handler(_ tag: Int) -> @Sendable (ExitKind) -> Void {
        { kind in self.entries.update { $0.append(Entry(tag: tag, kind: kind, onThread: currentThreadNumber())) } }
    }

    var all: [Entry] { entries.load() }
    var tags: [Int] { all.map(\.tag) }
    var kinds: Set<ExitKind> { Set(all.map(\.kind)) }
}

/// The calling thread's `pthread_t` as a number, for comparing threads in expectations.
func currentThreadNumber() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #elseif canImport(Glibc)
    UInt(pthread_self())
    #else
    #error("currentThreadNumber: unsupported platform")
    #endif
}

/// Waits, yielding, until `condition` holds, at most `attempts` times; returns whether it
/// held. For the few facts no event announces (an OS thread vanishing, a deinit on another
/// thread); the bound turns a broken contract into a failure instead of a hang.
func eventually(attempts: Int = 200_000, _ condition: () -> Bool) -> Bool {
    for _ in 0..<attempts {
        if condition() { return true }
        Seam.yield()
    }
    return condition()
}

/// A controller that passes every operation through and can hold a spawned thread at one
/// kind of scheduling point until the test releases it: the way to make a kill land at an
/// exact place in a thread's life.
final class GateController: SeamPassthroughController, @unchecked Sendable {
    enum Gate { case threadStart, cancellationPoint, join }

    private let gate: Gate
    /// Set when a spawned thread reached the gate.
    let arrived = Event()
    /// Set by the test to let it go on.
    let release = Event()
    private let used = AtomicBox(false)

    init(at gate: Gate) {
        self.gate = gate
    }

    /// Runs `body` on the calling thread under this controller; threads it spawns are held.
    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Seam.withController(self, thread: SeamThreadID(rawValue: 0), body)
    }

    private func hold(_ reached: Gate) {
        guard reached == gate, Seam.currentThread != SeamThreadID(rawValue: 0) else { return }
        guard used.exchange(true) == false else { return }
        arrived.set()
        release.wait()
    }

    override func threadDidStart(_ thread: SeamThreadID) {
        hold(.threadStart)
    }

    override func cancellationPoint(at location: SeamLocation) {
        hold(.cancellationPoint)
    }

    override func join(_ thread: SeamThreadID, at location: SeamLocation) {
        hold(.join)
    }
}
