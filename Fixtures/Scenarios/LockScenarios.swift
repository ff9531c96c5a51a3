import Harness
import Primitives

/// Scenarios for ``CriticalSection`` and ``ThreadLocalValue``.
public enum LockScenarios {
    final class Shared: @unchecked Sendable {
        var inside = 0
        var total = 0
    }

    /// Mutual exclusion with recursion: three threads enter, re-enter, and count.
    @Sendable public static func criticalSectionExcludes(_ scenario: Scenario) {
        let section = CriticalSection()
        let shared = Shared()
        for _ in 0..<3 {
            scenario.spawn {
                section.execute {
                    shared.inside += 1
                    Harness.check(shared.inside == 1, "\(shared.inside) threads inside the critical section")
                    section.execute { shared.total += 1 }
                    Seam.yield()
                    shared.inside -= 1
                }
            }
        }
        scenario.joinAll()
        Harness.check(shared.total == 3, "\(shared.total) entries counted, not 3")
    }

    /// A timed entry either runs alone or times out without running, and times out only
    /// after waiting its whole timeout (on the virtual clock).
    @Sendable public static func criticalSectionTimeout(_ scenario: Scenario) {
        let section = CriticalSection()
        let shared = Shared()
        scenario.spawn {
            section.execute {
                shared.inside += 1
                Seam.sleep(for: .seconds(10))
                shared.inside -= 1
            }
        }
        scenario.spawn {
            let start = Seam.now()
            let outcome = section.execute(timeout: .seconds(1)) {
                Harness.check(shared.inside == 0, "a timed entry overlaps the holder")
                shared.total += 1
            }
            if outcome.didTimeOut {
                Harness.check(shared.total == 0, "the closure ran although the entry timed out")
                Harness.check(Seam.now() >= start.advanced(by: .seconds(1)), "timed out before its timeout")
            }
        }
    }

    /// Each thread sees only its own thread-local value.
    @Sendable public static func threadLocalIsolation(_ scenario: Scenario) {
        let slot = ThreadLocalValue<Int>(namespace: "Fuzz", key: "isolation") { 0 }
        for value in 1...2 {
            scenario.spawn {
                Harness.check(slot.value() == 0, "a new thread does not start from the instantiator")
                slot.set(value)
                Seam.yield()
                Harness.check(
                    slot.cachedValue() == value, "thread \(value) sees \(String(describing: slot.cachedValue()))")
                slot.remove()
                Harness.check(slot.cachedValue() == nil, "a removed value is still there")
            }
        }
        scenario.joinAll()
        Harness.check(slot.cachedValue() != 1 && slot.cachedValue() != 2, "T0 sees another thread's value")
    }
}
