@testable import Harness
import Primitives
import Testing

/// The count of a stress iteration's waits: quiescent when every spawned thread that has not
/// ended waits and no wake-up is on its way.
@Suite("Stress waits: which threads wait for good")
struct StressWaitsTests {
    private static let first = SeamThreadID(rawValue: 1)
    private static let second = SeamThreadID(rawValue: 2)

    @Test("quiescent once every thread not ended waits, not while a wake-up is on its way to one")
    func quiescence() {
        let condition = SeamCondition()
        let mutex = SeamMutex()
        var waits = StressWaits()
        waits.spawned(Self.first)
        waits.spawned(Self.second)
        let entered = waits.willWait(Self.first, on: condition, releasing: mutex)
        #expect(entered == .waits)
        #expect(!waits.isQuiescent, "the second thread runs")
        waits.ended(Self.second)
        #expect(waits.isQuiescent)
        waits.wakes(condition, all: false)
        #expect(!waits.isQuiescent, "the signal has not reached the first thread")
        let leaves = waits.didWait(Self.first, on: condition)
        #expect(!leaves)
        #expect(!waits.isQuiescent, "the first thread runs")
        let enteredAgain = waits.willWait(Self.first, on: condition, releasing: mutex)
        #expect(enteredAgain == .waits)
        #expect(waits.isQuiescent, "it waits again, and nothing is on its way")
    }

    @Test("a signal is on its way to one waiter, a broadcast to each")
    func wakeUps() {
        let condition = SeamCondition()
        let mutex = SeamMutex()
        var waits = StressWaits()
        for thread in [Self.first, Self.second] {
            waits.spawned(thread)
            _ = waits.willWait(thread, on: condition, releasing: mutex)
        }
        for _ in 0..<3 { waits.wakes(condition, all: false) }
        _ = waits.didWait(Self.first, on: condition)
        #expect(!waits.isQuiescent, "two signals, two waiters: the second one's is on its way")
        _ = waits.didWait(Self.second, on: condition)
        #expect(!waits.isQuiescent, "both run")
        for thread in [Self.first, Self.second] { _ = waits.willWait(thread, on: condition, releasing: mutex) }
        #expect(waits.isQuiescent)
        waits.wakes(condition, all: true)
        _ = waits.didWait(Self.first, on: condition)
        #expect(!waits.isQuiescent)
    }

    @Test("a thread the scenario did not spawn is not counted; released waits leave")
    func untrackedAndReleased() {
        let condition = SeamCondition()
        let mutex = SeamMutex()
        var waits = StressWaits()
        let untracked = waits.willWait(Self.first, on: condition, releasing: mutex)
        #expect(untracked == .untracked)
        #expect(waits.isQuiescent)
        waits.spawned(Self.first)
        waits.spawned(Self.second)
        _ = waits.willWait(Self.first, on: condition, releasing: mutex)
        let released = waits.release()
        #expect(released.count == 1 && released.first?.condition === condition && released.first?.mutex === mutex)
        let leavesItsWait = waits.didWait(Self.first, on: condition)
        #expect(leavesItsWait)
        let startsNone = waits.willWait(Self.second, on: condition, releasing: mutex)
        #expect(startsNone == .leaves)
    }
}
