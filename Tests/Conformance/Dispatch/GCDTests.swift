import Dispatch
import Primitives
import Testing

/// Serialized: the shared queue and the main queue are process-wide.
@Suite("GCD dispatch helpers", .serialized, .timeLimit(.minutes(10)))
struct GCDTests {
    @Test("async runs work on the shared queue, concurrently")
    func asyncRunsConcurrently() {
        let key = DispatchSpecificKey<Int>()
        GCD.sharedQueue.setSpecific(key: key, value: 1)
        defer { GCD.sharedQueue.setSpecific(key: key, value: nil) }
        let onSharedQueue = LockedList<Bool>()
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        // Each block waits for the other to start: both finish only if they run at once.
        GCD.async {
            onSharedQueue.append(DispatchQueue.getSpecific(key: key) == 1)
            first.signal()
            _ = second.wait(timeout: .now() + .seconds(10))
            finished.signal()
        }
        GCD.async {
            onSharedQueue.append(DispatchQueue.getSpecific(key: key) == 1)
            second.signal()
            _ = first.wait(timeout: .now() + .seconds(10))
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(finished.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(onSharedQueue.snapshot == [true, true])
    }

    @Test("async(delay:) and mainThread(delay:) do not run before their delay", arguments: [false, true])
    func delayedWorkWaits(onMain: Bool) {
        let delay = Duration.milliseconds(60)
        let elapsed = LockedList<Duration>()
        let ran = DispatchSemaphore(value: 0)
        let start = Seam.now()
        let work: @Sendable () -> Void = {
            elapsed.append(start.duration(to: Seam.now()))
            ran.signal()
        }
        if onMain {
            GCD.mainThread(delay: delay) { work() }
        } else {
            GCD.async(delay: delay, work)
        }
        #expect(ran.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(elapsed.snapshot.count == 1)
        #expect(elapsed.snapshot.allSatisfy { $0 >= delay }, "ran after \(elapsed.snapshot)")
    }

    @Test("a zero or negative delay runs the work; an overlong one is accepted")
    func extremeDelays() {
        GCD.async(delay: .seconds(Int64.max)) {}
        GCD.mainThread(delay: .seconds(Int64.max)) {}
        let ran = DispatchSemaphore(value: 0)
        GCD.async(delay: .zero) { ran.signal() }
        GCD.async(delay: .seconds(-5)) { ran.signal() }
        GCD.mainThread(delay: .seconds(-5)) { ran.signal() }
        for _ in 0..<3 {
            #expect(ran.wait(timeout: .now() + .seconds(10)) == .success)
        }
    }

    @Test("asyncBarrier waits for earlier work, runs alone, and holds back later work")
    func barrierExcludes() {
        let state = BarrierProbe()
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<8 {
            GCD.async {
                state.blockDidStart()
                Seam.sleep(for: .milliseconds(5))
                state.blockWillFinish()
                finished.signal()
            }
        }
        GCD.asyncBarrier {
            state.barrierDidStart()
            Seam.sleep(for: .milliseconds(30))
            state.barrierWillFinish()
            finished.signal()
        }
        for _ in 0..<8 {
            GCD.async {
                state.blockDidStart()
                state.blockWillFinish()
                finished.signal()
            }
        }
        for _ in 0..<17 {
            #expect(finished.wait(timeout: .now() + .seconds(10)) == .success)
        }
        let report = state.report
        #expect(report.finishedBeforeBarrier == 8, "the barrier started before earlier blocks finished")
        #expect(report.runningWhenBarrierStarted == 0)
        #expect(report.startedDuringBarrier == 0, "a block ran alongside the barrier")
        #expect(report.startedAfterBarrier == 8)
    }

    @Test("mainThread runs work on the main queue, in submission order")
    func mainThreadRunsOnTheMainQueue() {
        let key = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        defer { DispatchQueue.main.setSpecific(key: key, value: nil) }
        let ran = LockedList<(index: Int, onMainQueue: Bool)>()
        let done = DispatchSemaphore(value: 0)
        for index in 0..<100 {
            GCD.mainThread {
                ran.append((index, DispatchQueue.getSpecific(key: key) == 1))
                if index == 99 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success, "nothing serviced the main queue")
        #expect(ran.snapshot.map(\.index).elementsEqual(0..<100))
        #expect(ran.snapshot.allSatisfy { $0.onMainQueue })
    }
}

/// What the barrier test observed: blocks and the barrier report their start and end.
final class BarrierProbe: @unchecked Sendable {
    struct Report {
        var running = 0
        var finished = 0
        var barrierRunning = false
        var barrierDone = false
        var finishedBeforeBarrier = -1
        var runningWhenBarrierStarted = -1
        var startedDuringBarrier = 0
        var startedAfterBarrier = 0
    }

    private let mutex = SeamMutex()
    private var state = Report()

    var report: Report { mutex.withLock { state } }

    func blockDidStart() {
        mutex.withLock {
            state.running += 1
            if state.barrierRunning { state.startedDuringBarrier += 1 }
            if state.barrierDone { state.startedAfterBarrier += 1 }
        }
    }

    func blockWillFinish() {
        mutex.withLock {
            state.running -= 1
            state.finished += 1
        }
    }

    func barrierDidStart() {
        mutex.withLock {
            state.barrierRunning = true
            state.finishedBeforeBarrier = state.finished
            state.runningWhenBarrierStarted = state.running
        }
    }

    func barrierWillFinish() {
        mutex.withLock {
            state.barrierRunning = false
            state.barrierDone = true
        }
    }
}
