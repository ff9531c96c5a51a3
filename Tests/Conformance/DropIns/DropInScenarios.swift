import Dispatch
import Harness
import Primitives

/// The classic bugs people write with the locks and queues they already use, on the
/// drop-ins, each with its fix.
enum DropInScenarios {
    /// A value computed on first use and published through a flag, on `Mutex` and `Atomic`
    /// drop-ins. The racy version checks the flag, computes, then publishes: two threads that
    /// both see the flag clear both compute. The fix checks again under the lock.
    final class LazyValue: Sendable {
        let ready = HarnessAtomic<Bool>(false)
        let value = HarnessMutex<Int?>(nil)
        let initializations = HarnessAtomic<Int>(0)
        let rechecksUnderLock: Bool

        init(rechecksUnderLock: Bool) { self.rechecksUnderLock = rechecksUnderLock }

        func get() -> Int {
            if ready.load(ordering: .acquiring) { return value.withLock { $0! } }
            let result: Int
            if rechecksUnderLock {
                result = value.withLock { value in
                    if let value { return value }
                    let made = make()
                    value = made
                    return made
                }
            } else {
                let made = make()
                value.withLock { $0 = made }
                result = made
            }
            ready.store(true, ordering: .releasing)
            return result
        }

        private func make() -> Int {
            initializations.wrappingAdd(1, ordering: .relaxed).newValue * 100
        }
    }

    static func lazyInitialization(rechecksUnderLock: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let lazy = LazyValue(rechecksUnderLock: rechecksUnderLock)
            let seen = HarnessMutex<[Int]>([])
            for _ in 0..<2 {
                scenario.spawn {
                    let value = lazy.get()
                    seen.withLock { $0.append(value) }
                }
            }
            scenario.joinAll()
            let initializations = lazy.initializations.load(ordering: .relaxed)
            let values = seen.withLock { $0 }
            Harness.check(
                initializations == 1, "the lazy value was initialized \(initializations) times; callers saw \(values)")
        }
    }

    /// A memoizing cache whose entries a concurrent `DispatchQueue` drop-in protects: reads
    /// with `sync`, writes with barriers. The racy version looks up with one `sync` and
    /// inserts with a later barrier (check, then act): two threads missing the same key both
    /// compute it. The fix looks up and inserts in one barrier block.
    final class Cache: @unchecked Sendable {
        let queue = HarnessDispatchQueue(label: "cache", attributes: .concurrent)
        /// Read and written only on `queue`.
        private var entries: [String: Int] = [:]
        let computations = HarnessAtomic<Int>(0)
        let checksAndActsAtOnce: Bool

        init(checksAndActsAtOnce: Bool) { self.checksAndActsAtOnce = checksAndActsAtOnce }

        func value(for key: String) -> Int {
            if checksAndActsAtOnce {
                return queue.sync(flags: .barrier) {
                    if let hit = entries[key] { return hit }
                    let computed = compute()
                    entries[key] = computed
                    return computed
                }
            }
            if let hit = queue.sync(execute: { entries[key] }) { return hit }
            let computed = compute()
            queue.async(flags: .barrier) { self.entries[key] = computed }
            return computed
        }

        private func compute() -> Int {
            computations.wrappingAdd(1, ordering: .relaxed).newValue
        }
    }

    static func cacheCheckThenAct(atOnce: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let cache = Cache(checksAndActsAtOnce: atOnce)
            for _ in 0..<2 {
                scenario.spawn { _ = cache.value(for: "answer") }
            }
            scenario.joinAll()
            let computations = cache.computations.load(ordering: .relaxed)
            Harness.check(computations == 1, "the cache computed \"answer\" \(computations) times")
        }
    }
}
