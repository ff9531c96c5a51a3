import Primitives

/// A list that several threads append to.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var items: [Element] = []

    func append(_ item: Element) {
        mutex.withLock { items.append(item) }
    }

    var snapshot: [Element] { mutex.withLock { items } }
}

/// Performs every seam operation for real and records each condition wait: which thread
/// waited and whether the wait had a deadline. Spurious wake-ups armed for a thread make its
/// next waits return at once, unsignalled, as POSIX allows. Its log is guarded by a pthread
/// mutex, which ThreadSanitizer follows under contention, unlike `Synchronization.Mutex`.
final class WaitProbe: SeamPassthroughController, @unchecked Sendable {
    struct Wait: Sendable, Hashable {
        let thread: SeamThreadID?
        let hadDeadline: Bool
        let spurious: Bool
    }

    private struct Log {
        var waits: [Wait] = []
        var armedSpuriousWakeUps: [SeamThreadID: Int] = [:]
    }

    private let logMutex = SeamMutex()
    private var log = Log()

    /// Runs `body` on the calling thread under this controller, as thread 0.
    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Seam.withController(self, thread: SeamThreadID(rawValue: 0), body)
    }

    /// Makes the next `count` waits of `thread` wake up spuriously.
    func armSpuriousWakeUps(_ count: Int = 1, for thread: SeamThreadID) {
        logMutex.withLockDirectly { log.armedSpuriousWakeUps[thread, default: 0] += count }
    }

    /// The waits `thread` performed so far.
    func waits(of thread: SeamThreadID) -> [Wait] {
        logMutex.withLockDirectly { log.waits.filter { $0.thread == thread } }
    }

    /// The waits of every thread but `excluded`.
    func waits(excluding excluded: Set<SeamThreadID?>) -> [Wait] {
        logMutex.withLockDirectly { log.waits.filter { !excluded.contains($0.thread) } }
    }

    override func wait(
        on condition: SeamCondition,
        releasing mutex: SeamMutex,
        deadline: SeamInstant?,
        at location: SeamLocation
    ) -> SeamWaitResult {
        let thread = Seam.currentThread
        let spurious = logMutex.withLockDirectly {
            var spurious = false
            if let thread, let armed = log.armedSpuriousWakeUps[thread], armed > 0 {
                log.armedSpuriousWakeUps[thread] = armed - 1
                spurious = true
            }
            log.waits.append(Wait(thread: thread, hadDeadline: deadline != nil, spurious: spurious))
            return spurious
        }
        // A spurious wake-up at once: as if the mutex had been released and re-acquired
        // with no other thread taking it in between.
        if spurious { return .signalled }
        return super.wait(on: condition, releasing: mutex, deadline: deadline, at: location)
    }
}

extension SeamThreadID {
    /// The first thread spawned under a controller: in these tests, the worker's thread.
    static let firstSpawned = SeamThreadID(rawValue: 1)
    /// The thread that runs a controlled test body.
    static let testBody = SeamThreadID(rawValue: 0)
}
