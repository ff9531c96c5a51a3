import Dispatch
import Harness
import Primitives

/// Bugs written on the Dispatch drop-ins, shared by their harness tests and the stress
/// engine's.
enum HarnessDispatchScenarios {
    /// A one-slot buffer on two ``HarnessDispatchSemaphore``s: a producer offers two items,
    /// trying for a free slot with `wait(timeout: .now())` and dropping the item when the try
    /// fails, while a consumer takes one item. Returns how many items were lost: counted as
    /// produced, yet neither consumed nor left in the buffer.
    ///
    /// With `countsDrops`, the producer counts a dropped item as produced: one item is lost
    /// whenever its second try comes before the consumer frees the slot, so finding it needs
    /// the zero-timeout wait to fail. Without, nothing is ever lost.
    static func droppingProducer(countsDrops: Bool) -> @Sendable (Scenario) -> Int {
        { scenario in
            let freeSlots = HarnessDispatchSemaphore(value: 1)
            let filledSlots = HarnessDispatchSemaphore(value: 0)
            let buffer = HarnessMutex<[Int]>([])
            let produced = HarnessAtomic(0)
            let consumed = HarnessAtomic(0)
            scenario.spawn {
                for item in 0..<2 {
                    let hasRoom = freeSlots.wait(timeout: .now()) == .success
                    if hasRoom {
                        buffer.withLock { $0.append(item) }
                        filledSlots.signal()
                    }
                    if hasRoom || countsDrops { produced.wrappingAdd(1, ordering: .relaxed) }
                }
            }
            scenario.spawn {
                filledSlots.wait()
                buffer.withLock { _ = $0.removeFirst() }
                consumed.wrappingAdd(1, ordering: .relaxed)
                freeSlots.signal()
            }
            scenario.joinAll()
            let left = buffer.withLock { $0.count }
            return produced.load(ordering: .relaxed) - consumed.load(ordering: .relaxed) - left
        }
    }

    /// ``droppingProducer(countsDrops:)`` as a stress test: no item lost is acceptable, one
    /// lost forbidden.
    static func droppingProducerStressTest(countsDrops: Bool) -> StressTest<Int> {
        StressTest(
            outcomes: [
                .acceptable(0, meaning: "every item produced was consumed or is in the buffer"),
                .forbidden(1, meaning: "an item counted as produced was dropped")
            ],
            droppingProducer(countsDrops: countsDrops)
        )
    }
}
