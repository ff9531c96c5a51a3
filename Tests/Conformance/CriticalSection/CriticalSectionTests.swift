import Harness
import Primitives
import Testing

@Suite("CriticalSection")
struct CriticalSectionTests {
    private struct Failure: Error, Equatable {}

    @Test("no two threads are ever inside at once (4 threads × 10,000 entries)")
    func mutualExclusion() throws {
        let section = CriticalSection()
        let inside = SeamAtomic(0)
        let overlaps = SeamAtomic(0)
        let counter = UnsafeCounter()
        let threads = try (0..<4).map { _ in
            try Seam.spawnThread {
                for _ in 0..<10_000 {
                    section.execute {
                        if inside.add(1) != 1 { overlaps.add(1) }
                        counter.value += 1
                        inside.add(-1)
                    }
                }
            }.get()
        }
        for thread in threads { try thread.join() }
        #expect(overlaps.load() == 0)
        #expect(counter.value == 40_000)
    }

    @Test("the thread inside re-enters, and leaves only after as many exits")
    func recursion() throws {
        let section = CriticalSection()
        let (depth, timedReentry, otherWhileNested) = try runOnNewThread {
            section.execute {
                section.execute {
                    let depth = section.execute { section.execute { 4 } }
                    let timedReentry = section.execute(timeout: .zero) { "again" }
                    let otherWhileNested = try? runOnNewThread { section.execute(timeout: .zero) { true }.didTimeOut }
                    return (depth, timedReentry, otherWhileNested)
                }
            }
        }
        #expect(depth == 4)
        #expect(timedReentry == .completed("again"))
        #expect(otherWhileNested == true)
        #expect(try runOnNewThread { section.execute(timeout: .zero) { 1 } } == .completed(1))
    }

    @Test("a timed entry gives up while another thread is inside, without running the closure")
    func timesOut() throws {
        let section = CriticalSection()
        let ran = SeamAtomic(false)
        let (outcome, waited) = try section.execute {
            try runOnNewThread {
                let start = Seam.now()
                let outcome = section.execute(timeout: .milliseconds(30)) { ran.store(true) }
                return (outcome.didTimeOut, start.duration(to: Seam.now()))
            }
        }
        #expect(outcome)
        #expect(waited >= .milliseconds(30))
        #expect(ran.load() == false)
    }

    @Test("a closure returning nil completes; it is not taken for a timeout")
    func nilIsNotATimeout() {
        let section = CriticalSection()
        let outcome: CriticalSectionOutcome<Int?> = section.execute(timeout: .seconds(1)) { nil }
        #expect(outcome == .completed(nil))
        #expect(!outcome.didTimeOut)
    }

    @Test("a thrown error is rethrown, typed, and the section is left")
    func rethrowsAndLeaves() throws {
        let section = CriticalSection()
        do throws(Failure) {
            try section.execute { () throws(Failure) in throw Failure() }
            Issue.record("execute did not rethrow")
        } catch {
            #expect(error == Failure())
        }
        #expect(throws: Failure.self) {
            try section.execute(timeout: .seconds(1)) { () throws(Failure) in throw Failure() }
        }
        #expect(try runOnNewThread { section.execute(timeout: .zero) { 1 } } == .completed(1))
    }

    @Test("an error thrown from a nested entry leaves only that entry")
    func nestedThrowKeepsOuterEntry() throws {
        let section = CriticalSection()
        let (nestedThrew, otherWhileOuterHeld) = try runOnNewThread {
            section.execute {
                let nestedThrew = (try? section.execute { throw Failure() }) == nil
                return (nestedThrew, try? runOnNewThread { section.execute(timeout: .zero) { 1 }.didTimeOut })
            }
        }
        #expect(nestedThrew)
        #expect(otherWhileOuterHeld == true)
        #expect(try runOnNewThread { section.execute(timeout: .zero) { 1 } } == .completed(1))
    }

    @Test(
        "under a harness, a timed entry enters or times out: a zero timeout at once, a longer one when timeouts race",
        arguments: [(Duration.zero, false), (.milliseconds(10), true)]
    )
    func timedEntryOutcomes(timeout: Duration, timeoutsRaceProgress: Bool) throws {
        let outcomes = try exploredOutcomes("timed entry", timeoutsRaceProgress: timeoutsRaceProgress) { scenario in
            let section = CriticalSection()
            // Inside for a few steps, so that an early timeout has room to fall there.
            scenario.spawn { section.execute { for _ in 0..<4 { Seam.yield() } } }
            let entered = !section.execute(timeout: timeout) {}.didTimeOut
            scenario.joinAll()
            return entered
        }
        #expect(outcomes == [true, false])
    }

    @Test("a waiting thread enters when the holder leaves; every step goes through the seam")
    func waiterIsWokenThroughTheSeam() throws {
        let recorder = RecordingController()
        let section = CriticalSection()
        let outcome = try recorder.record {
            let waiter = try section.execute {
                let waiter = try StartedThread { section.execute(timeout: .seconds(30)) { 42 } }
                #expect(recorder.waitUntilBlocked(thread: 1), "thread 1 never waited")
                return waiter
            }
            return try waiter.finish()
        }
        #expect(outcome == .completed(42))
        let expected: Set<RecordedOperation.Kind> = [.lock, .unlock, .wait, .signal, .now]
        #expect(expected.isSubset(of: recorder.kinds), "missing: \(expected.subtracting(recorder.kinds))")
    }
}
