import Dispatch
import Harness
import Primitives
import Testing

/// The Dispatch drop-ins on real threads: the `DispatchQueue`, `DispatchGroup` and
/// `DispatchSemaphore` behaviour they pass through.
@Suite("HarnessDispatch: the DispatchQueue, DispatchGroup and DispatchSemaphore drop-ins on real threads")
struct HarnessDispatchTests {
    @Test("a serial queue runs async blocks one at a time in order, and sync returns the block's value")
    func serialOrder() {
        let queue = HarnessDispatchQueue(label: "test.serial")
        let log = Log()
        for index in 0..<100 { queue.async { log.append(index) } }
        #expect(queue.sync { 42 } == 42)
        #expect(log.entries == Array(0..<100))
        #expect(!queue.isConcurrent && queue.label == "test.serial")
    }

    @Test("a barrier on a concurrent queue runs alone")
    func barrierAlone() {
        let queue = HarnessDispatchQueue(label: "test.concurrent", attributes: .concurrent)
        let overlap = OverlapCheck()
        let group = HarnessDispatchGroup()
        for index in 0..<200 {
            if index % 10 == 0 {
                queue.async(group: group, flags: .barrier) { overlap.run(exclusive: true) }
            } else {
                queue.async(group: group) { overlap.run(exclusive: false) }
            }
        }
        group.wait()
        #expect(queue.isConcurrent)
        #expect(overlap.violations.load() == 0)
    }

    @Test("asyncAfter runs the block no earlier than its deadline")
    func asyncAfterDeadline() {
        let queue = HarnessDispatchQueue(label: "test.after")
        let done = HarnessDispatchSemaphore(value: 0)
        let start = DispatchTime.now()
        let ranAt = SeamAtomic<UInt64>(0)
        queue.asyncAfter(deadline: .now() + .milliseconds(30)) {
            ranAt.store(DispatchTime.now().uptimeNanoseconds)
            done.signal()
        }
        done.wait()
        #expect(ranAt.load() - start.uptimeNanoseconds >= 30_000_000)
    }

    @Test("a group waits for its work, times out while work is outstanding, and notifies when empty")
    func group() {
        let group = HarnessDispatchGroup()
        let queue = HarnessDispatchQueue(label: "test.group")
        group.enter()
        #expect(group.wait(timeout: .now() + .milliseconds(10)) == .timedOut)
        let notified = HarnessDispatchSemaphore(value: 0)
        group.notify(queue: queue) { notified.signal() }
        group.leave()
        group.wait()
        #expect(group.wait(timeout: .now()) == .success)
        #expect(notified.wait(timeout: .now() + .seconds(10)) == .success)
    }

    @Test("a semaphore counts permits and its timed wait times out")
    func semaphore() {
        let semaphore = HarnessDispatchSemaphore(value: 1)
        #expect(semaphore.wait(timeout: .now()) == .success)
        #expect(semaphore.wait(timeout: .now() + .milliseconds(10)) == .timedOut)
        semaphore.signal()
        semaphore.wait()
        semaphore.signal()  // Dispatch traps if a semaphore is freed with fewer permits than it started with
    }
}

/// The Dispatch drop-ins under a harness: the queue's ordering and exclusion in every
/// explored schedule, and delays and timeouts on virtual time.
@Suite("HarnessDispatch: the Dispatch models under a harness")
struct HarnessDispatchModelTests {
    static func options(schedules: Int = 300) -> ExplorationOptions {
        ExplorationOptions(strategy: .random, schedules: schedules, seed: 4, keepsFailures: false)
    }

    @Test("a serial queue runs async blocks in submission order and one at a time, in every schedule")
    func serialOrder() throws {
        let report = try Harness.run("serial queue order", options: Self.options()) { scenario in
            let queue = HarnessDispatchQueue(label: "serial")
            let log = Log()
            let overlap = OverlapCheck()
            for index in 0..<3 {
                queue.async {
                    overlap.run(exclusive: true); log.append(index)
                }
            }
            scenario.spawn { queue.sync { overlap.run(exclusive: true) } }
            scenario.joinAll()
            queue.sync {}
            Harness.check(log.entries == [0, 1, 2], "blocks ran in the order \(log.entries)")
            Harness.check(overlap.violations.load() == 0, "two blocks of a serial queue overlapped")
        }
        #expect(report.failure == nil)
    }

    @Test(
        "a barrier on a concurrent queue waits for the blocks before it and holds back those after, in every schedule")
    func barrier() throws {
        let report = try Harness.run("concurrent queue barrier", options: Self.options()) { scenario in
            let queue = HarnessDispatchQueue(label: "concurrent", attributes: .concurrent)
            let overlap = OverlapCheck()
            let group = HarnessDispatchGroup()
            queue.async(group: group) { overlap.run(exclusive: false) }
            queue.async(group: group, flags: .barrier) { overlap.run(exclusive: true) }
            queue.async(group: group) { overlap.run(exclusive: false) }
            scenario.spawn { queue.sync { overlap.run(exclusive: false) } }
            scenario.joinAll()
            group.wait()
            Harness.check(overlap.violations.load() == 0, "a barrier overlapped another block")
        }
        #expect(report.failure == nil)
    }

    @Test("blocks on a concurrent queue do overlap in some schedule")
    func concurrentOverlap() throws {
        let report = try Harness.run("concurrent queue overlap", options: Self.options(schedules: 500)) { scenario in
            let queue = HarnessDispatchQueue(label: "concurrent", attributes: .concurrent)
            let overlap = OverlapCheck()
            let group = HarnessDispatchGroup()
            for _ in 0..<2 { queue.async(group: group) { overlap.run(exclusive: true) } }
            group.wait()
            Harness.check(overlap.violations.load() == 0, "two blocks overlapped")
        }
        #expect(report.failure != nil, "the model never ran two non-barrier blocks side by side")
    }

    @Test("asyncAfter, group and semaphore timeouts run on virtual time: an hour passes at once, deadlines in order")
    func virtualTime() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let report = try Harness.run("virtual time", options: Self.options(schedules: 50)) { scenario in
            let queue = HarnessDispatchQueue(label: "timers")
            let log = Log()
            let group = HarnessDispatchGroup()
            let begin = Seam.now()
            group.enter()
            queue.asyncAfter(deadline: .now() + .seconds(3_600)) {
                log.append(2); group.leave()
            }
            group.enter()
            queue.asyncAfter(deadline: .now() + .seconds(60)) {
                log.append(1); group.leave()
            }
            let semaphore = HarnessDispatchSemaphore(value: 0)
            Harness.check(
                semaphore.wait(timeout: .now() + .seconds(10)) == .timedOut,
                "a semaphore nobody signals did not time out")
            Harness.check(group.wait(timeout: .now() + .seconds(1)) == .timedOut, "the group emptied before its timers")
            group.wait()
            let elapsed = begin.duration(to: Seam.now())
            Harness.check(log.entries == [1, 2], "the timers ran in the order \(log.entries)")
            Harness.check(elapsed >= .seconds(3_600), "only \(elapsed) of virtual time passed")
        }
        #expect(report.failure == nil)
        #expect(started.duration(to: clock.now) < .seconds(30))
    }

    @Test("a semaphore's wait(timeout: .now()) is a try: it takes a permit signalled before it, else times out at once")
    func semaphoreTry() throws {
        let outcomes = try exploredOutcomes("semaphore try") { scenario in
            let semaphore = HarnessDispatchSemaphore(value: 0)
            scenario.spawn { semaphore.signal() }
            let begin = Seam.now()
            let result = semaphore.wait(timeout: .now())
            Harness.check(Seam.now() == begin, "a due wait moved the clock")
            scenario.joinAll()
            return result == .success
        }
        #expect(outcomes == [true, false])
    }

    @Test("a group's wait(timeout: .now()) is a try: it succeeds if the work left before it, else times out at once")
    func groupTry() throws {
        let outcomes = try exploredOutcomes("group try") { scenario in
            let group = HarnessDispatchGroup()
            group.enter()
            scenario.spawn { group.leave() }
            let result = group.wait(timeout: .now())
            scenario.joinAll()
            return result == .success
        }
        #expect(outcomes == [true, false])
    }

    @Test(
        "a buffer that counts an item it dropped when its zero-timeout try failed is found",
        arguments: HarnessStrategyTests.strategies
    )
    func droppingProducer(strategy: Strategy) throws {
        let report = try Self.exploreProducer(countsDrops: true, strategy)
        let failure = try #require(report.failure, "\(strategy) ran \(report.schedulesRun) schedules, found nothing")
        #expect("\(failure.reason)".contains("1 item lost"), "\(failure.reason)")
    }

    @Test("the producer that counts only what it put in loses nothing", arguments: HarnessStrategyTests.strategies)
    func countingProducer(strategy: Strategy) throws {
        #expect(try Self.exploreProducer(countsDrops: false, strategy).failure == nil)
    }

    /// Explores ``HarnessDispatchScenarios/droppingProducer(countsDrops:)`` for 100 schedules
    /// of `strategy`, checking that no item is lost.
    private static func exploreProducer(countsDrops: Bool, _ strategy: Strategy) throws -> ExplorationReport {
        let options = ExplorationOptions(strategy: strategy, schedules: 100, seed: 1, keepsFailures: false)
        let producer = HarnessDispatchScenarios.droppingProducer(countsDrops: countsDrops)
        return try Harness.run("producer counting drops: \(countsDrops)", options: options) { scenario in
            let lost = producer(scenario)
            Harness.check(lost == 0, "\(lost) item lost")
        }
    }

    @Test("group.notify submits its block once the group is empty")
    func notify() throws {
        let report = try Harness.run("group notify", options: Self.options()) { scenario in
            let queue = HarnessDispatchQueue(label: "work", attributes: .concurrent)
            let group = HarnessDispatchGroup()
            let done = HarnessAtomic(0)
            let notified = HarnessDispatchSemaphore(value: 0)
            for _ in 0..<2 { queue.async(group: group) { done.wrappingAdd(1, ordering: .relaxed) } }
            group.notify(queue: queue) {
                Harness.check(done.load(ordering: .relaxed) == 2, "notified before the work finished")
                notified.signal()
            }
            notified.wait()
        }
        #expect(report.failure == nil)
    }

    @Test("sync onto a serial queue from its own block is reported as a deadlock")
    func syncOntoItself() throws {
        let report = try Harness.run("sync onto itself", options: Self.options(schedules: 5)) { scenario in
            let queue = HarnessDispatchQueue(label: "serial")
            queue.sync { queue.sync {} }
        }
        let failure = try #require(report.failure)
        #expect("\(failure.reason)".contains("deadlock"), "\(failure.reason)")
    }
}

/// Integers appended under a lock.
private final class Log: Sendable {
    private let mutex = HarnessMutex<[Int]>([])
    func append(_ value: Int) { mutex.withLock { $0.append(value) } }
    var entries: [Int] { mutex.withLock { $0 } }
}

/// Counts blocks running at once; an exclusive block that finds another running (or is
/// found) is a violation. The counting itself goes through seam atomics, so the harness can
/// switch threads inside a block.
private final class OverlapCheck: Sendable {
    let running = SeamAtomic(0)
    let exclusiveRunning = SeamAtomic(false)
    let violations = SeamAtomic(0)

    func run(exclusive: Bool) {
        if exclusive {
            if running.load() != 0 || exclusiveRunning.exchange(true) { violations.add(1) }
            Seam.yield()
            exclusiveRunning.store(false)
        } else {
            running.add(1)
            if exclusiveRunning.load() { violations.add(1) }
            Seam.yield()
            running.add(-1)
        }
    }
}
