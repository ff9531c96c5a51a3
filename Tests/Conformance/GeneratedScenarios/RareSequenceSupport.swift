import Harness
import Primitives

/// A set of `Int` that answers `contains` from a membership cache kept beside the set. The
/// defect: `remove` leaves the set's lock before it clears the cache entry, so an `insert` of
/// the same value in between is forgotten by the cache, and a later `contains` says `false`.
/// Only one sequence shows it: the value inserted, removed while it is inserted again, then
/// looked up.
final class StaleCacheSet: @unchecked Sendable {
    private let mutex = SeamMutex()
    private let cacheMutex = SeamMutex()
    private var members: Set<Int> = []
    private var cached: [Int: Bool] = [:]

    func insert(_ value: Int) -> Bool {
        mutex.withLock {
            let inserted = members.insert(value).inserted
            cacheMutex.withLock { cached[value] = true }
            return inserted
        }
    }

    func remove(_ value: Int) -> Bool {
        let removed = mutex.withLock { members.remove(value) != nil }
        if removed {
            cacheMutex.withLock { cached[value] = false }
        }
        return removed
    }

    func contains(_ value: Int) -> Bool {
        cacheMutex.withLock { cached[value] ?? false }
    }
}

/// Inserts, removes and lookups of 1 to 9 on a fresh ``StaleCacheSet``.
func staleCacheSetTest() -> LinearizabilityTest<StaleCacheSet, SetModel<Int>> {
    LinearizabilityTest(model: SetModel<Int>()) { StaleCacheSet() }
        .operation(SetOperation.insert, .int(in: 1...9)) { set, value in set.insert(value) }
        .operation(SetOperation.remove, .int(in: 1...9)) { set, value in set.remove(value) }
        .operation(SetOperation.contains, .int(in: 1...9)) { set, value in set.contains(value) }
}
