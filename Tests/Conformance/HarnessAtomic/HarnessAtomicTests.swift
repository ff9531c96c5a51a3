import Harness
import Primitives
import Synchronization
import Testing

/// `HarnessAtomic`'s contract on real threads (no controller) and under a harness.
@Suite("HarnessAtomic: the Synchronization.Atomic drop-in")
struct HarnessAtomicTests {
    @Test("load, store, exchange and compare-exchange behave as Atomic's")
    func operations() {
        let cell = HarnessAtomic(5)
        #expect(cell.load(ordering: .relaxed) == 5)
        cell.store(7, ordering: .releasing)
        #expect(cell.exchange(9, ordering: .acquiringAndReleasing) == 7)
        #expect(cell.compareExchange(expected: 1, desired: 2, ordering: .sequentiallyConsistent) == (false, 9))
        #expect(cell.compareExchange(expected: 9, desired: 2, ordering: .sequentiallyConsistent) == (true, 9))
        #expect(
            cell.compareExchange(expected: 2, desired: 3, successOrdering: .acquiring, failureOrdering: .relaxed) == (
                true, 2
            ))
        var exchanged = false
        while !exchanged { exchanged = cell.weakCompareExchange(expected: 3, desired: 4, ordering: .relaxed).exchanged }
        #expect(cell.load(ordering: .sequentiallyConsistent) == 4)
    }

    @Test("the integer operations return the values before and after")
    func integerOperations() {
        let cell = HarnessAtomic<UInt8>(250)
        #expect(cell.wrappingAdd(10, ordering: .relaxed) == (250, 4))
        #expect(cell.wrappingSubtract(5, ordering: .relaxed) == (4, 255))
        #expect(cell.bitwiseAnd(0x0F, ordering: .relaxed) == (255, 0x0F))
        #expect(cell.bitwiseOr(0xF0, ordering: .relaxed) == (0x0F, 0xFF))
        #expect(cell.bitwiseXor(0x0F, ordering: .relaxed) == (0xFF, 0xF0))
    }

    @Test("AtomicRepresentable values other than integers: Bool and a raw-value enum")
    func representableValues() {
        let flag = HarnessAtomic(false)
        #expect(flag.exchange(true, ordering: .relaxed) == false)
        let phase = HarnessAtomic(Phase.idle)
        #expect(phase.compareExchange(expected: .idle, desired: .running, ordering: .relaxed).exchanged)
        #expect(phase.load(ordering: .relaxed) == .running)
    }

    @Test("concurrent wrapping adds on real threads lose nothing")
    func addsOnRealThreads() throws {
        let counter = HarnessAtomic(0)
        let threads = try (0..<4).map { _ in
            try Seam.spawnThread {
                for _ in 0..<50_000 { counter.wrappingAdd(1, ordering: .relaxed) }
            }.get()
        }
        for thread in threads { try thread.join() }
        #expect(counter.load(ordering: .relaxed) == 200_000)
    }

    @Test("under a harness, a load then store loses an update and wrappingAdd does not")
    func harnessLostUpdate() throws {
        let options = ExplorationOptions(schedules: 500, seed: 3, keepsFailures: false)
        let racy = try Harness.run("HarnessAtomic load then store", options: options) { scenario in
            let counter = HarnessAtomic(0)
            for _ in 0..<2 {
                scenario.spawn { counter.store(counter.load(ordering: .relaxed) + 1, ordering: .relaxed) }
            }
            scenario.joinAll()
            Harness.check(counter.load(ordering: .relaxed) == 2, "an increment was lost")
        }
        #expect(racy.failure != nil)
        let atomic = try Harness.run("HarnessAtomic wrappingAdd", options: options) { scenario in
            let counter = HarnessAtomic(0)
            for _ in 0..<2 {
                scenario.spawn { counter.wrappingAdd(1, ordering: .relaxed) }
            }
            scenario.joinAll()
            Harness.check(counter.load(ordering: .relaxed) == 2, "an increment was lost")
        }
        #expect(atomic.failure == nil)
    }
}

private enum Phase: UInt8, AtomicRepresentable {
    case idle, running
}
