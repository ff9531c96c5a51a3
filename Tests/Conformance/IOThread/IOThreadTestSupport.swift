import CShim
import Primitives
import Testing

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

/// A controller that passes every operation through and holds the first spawned thread to
/// reach one kind of scheduling point until the test releases it: the way to make a kill
/// land at an exact place in a thread's life.
final class HoldingController: SeamPassthroughController, @unchecked Sendable {
    enum Point { case threadStart, cancellationPoint, join }

    private let point: Point
    /// Opened when a spawned thread reached the point.
    let arrived = Gate()
    /// Opened by the test to let it go on.
    let release = Gate()
    private let used = AtomicBox(false)

    init(at point: Point) {
        self.point = point
    }

    /// Runs `body` on the calling thread under this controller; threads it spawns are held.
    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Seam.withController(self, thread: SeamThreadID(rawValue: 0), body)
    }

    /// Holds the calling thread if it is a spawned one reaching `reached` first. The wait is
    /// not a cancellation point: a thread killed while held acts on the kill only after it
    /// is released, at the real cancellation point it was about to reach.
    private func hold(_ reached: Point) {
        guard reached == point, Seam.currentThread != SeamThreadID(rawValue: 0) else { return }
        guard used.exchange(true) == false else { return }
        arrived.open()
        var previous: Int32 = 0
        pthread_setcancelstate(Int32(PTHREAD_CANCEL_DISABLE), &previous)
        release.wait(timeout: .seconds(30))
        var ignored: Int32 = 0
        pthread_setcancelstate(previous, &ignored)
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
