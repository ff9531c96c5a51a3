import CShim
import Primitives
import Testing

@Suite("AtomicBox")
struct AtomicBoxTests {
    @Test("load, store and exchange see and leave whole values")
    func loadStoreExchange() {
        let box = AtomicBox("first")
        #expect(box.load() == "first")
        box.store("second")
        #expect(box.exchange("third") == "second")
        #expect(box.load() == "third")
        #expect(box.description == "AtomicBox(third)")
    }

    @Test("4 threads × 10,000 updates lose none (seed defect 10)")
    func updatesAreAtomic() throws {
        let box = AtomicBox(0)
        let threads = try (0..<4).map { _ in
            try Seam.spawnThread {
                for _ in 0..<10_000 { box.update { $0 += 1 } }
            }.get()
        }
        for thread in threads { try thread.join() }
        #expect(box.load() == 40_000)
    }

    @Test("update returns what its body returned and keeps what it left, also when it throws")
    func updateResultAndErrors() {
        struct Stop: Error, Equatable {}
        let box = AtomicBox([1, 2])
        #expect(
            box.update { values -> Int in
                values.append(3)
                return values.count
            } == 3)
        #expect(throws: Stop()) {
            try box.update { (values: inout [Int]) throws(Stop) in
                values.append(4)
                throw Stop()
            }
        }
        #expect(box.load() == [1, 2, 3, 4])
    }

    @Test("compareExchange compares values, not storage (seed defect 10)")
    func compareExchangeByValue() {
        let box = AtomicBox([1, 2, 3])
        let equalButSeparate = Array(1...3)
        #expect(box.compareExchange(expected: equalButSeparate, desired: [9]) == (true, [1, 2, 3]))
        #expect(box.compareExchange(expected: equalButSeparate, desired: [7]) == (false, [9]))
        #expect(box.load() == [9])
        let text = AtomicBox("ab")
        #expect(text.compareExchange(expected: String(["a", "b"]), desired: "c").exchanged)
    }

    @Test("compareExchange lets exactly one of many racing threads win each value")
    func compareExchangeRace() throws {
        let box = AtomicBox(0)
        let wins = SeamAtomic(0)
        let threads = try (0..<4).map { _ in
            try Seam.spawnThread {
                for value in 0..<2_000 where box.compareExchange(expected: value, desired: value + 1).exchanged {
                    wins.add(1)
                }
            }.get()
        }
        for thread in threads { try thread.join() }
        #expect(box.load() == 2_000)
        #expect(wins.load() == 2_000)
    }

    @Test("take returns the value and leaves nil; of racing takers exactly one gets it")
    func take() throws {
        let box = AtomicBox<String?>("token")
        #expect(box.take() == "token")
        #expect(box.load() == nil)
        #expect(box.take() == nil)

        for _ in 0..<200 {
            let shared = AtomicBox<Int?>(42)
            let taken = SeamAtomic(0)
            let takers = try (0..<4).map { _ in
                try Seam.spawnThread {
                    if shared.take() != nil { taken.add(1) }
                }.get()
            }
            for taker in takers { try taker.join() }
            #expect(taken.load() == 1)
        }
    }

    @Test("a thread killed inside update finishes it and leaves the box unlocked")
    func killInsideUpdate() {
        let box = AtomicBox(0)
        let inside = Gate()
        let proceed = Gate()
        let afterUpdate = AtomicBox(false)
        let thread = IOThread(joinable: true) { control in
            box.update { value in
                inside.open()
                proceed.wait()
                control.checkCancellation()
                value = 1
            }
            control.checkCancellation()
            afterUpdate.store(true)
        }
        thread.start()
        #expect(inside.wait())
        #expect(thread.kill())
        proceed.open()
        #expect(thread.join() == .joined(.killed))
        let loaded = AtomicBox<Int?>(nil)
        let unlocked = Gate()
        let reader = IOThread { _ in
            loaded.store(box.load())
            unlocked.open()
        }
        reader.start()
        #expect(unlocked.wait(timeout: .seconds(10)), "the box was left locked")
        #expect(loaded.load() == 1)
        #expect(afterUpdate.load() == false)
    }

    @Test("every operation goes through the seam")
    func operationsGoThroughTheSeam() {
        let recorder = RecordingController()
        recorder.record {
            let box = AtomicBox<Int?>(1)
            _ = box.load()
            box.store(2)
            _ = box.exchange(3)
            _ = box.compareExchange(expected: 3, desired: 4)
            box.update { $0 = 5 }
            _ = box.take()
        }
        let locks = recorder.operations.filter { $0.kind == .lock }
        #expect(locks.count == 6)
        #expect(recorder.operations.count { $0.kind == .unlock } == 6)
        #expect(locks.allSatisfy { $0.location?.fileName == "AtomicBoxTests.swift" }, "locations name the caller")
    }

    @Test(
        "using a box from inside its own update is a programmer error that traps",
        .enabled(
            if: !BuildConfiguration.isOptimized, "only debug builds use error-checking mutexes; release builds deadlock"
        )
    )
    func reentrantUpdateTraps() async {
        await #expect(processExitsWith: .failure) {
            let box = AtomicBox(0)
            box.update { _ in _ = box.load() }
        }
    }
}
