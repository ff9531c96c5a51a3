import Primitives

/// Which threads of a stress iteration wait for good, for a scenario whose calls may (a
/// generated scenario with blocking operations): the threads the scenario spawned that have
/// not ended, the untimed condition waits they are in, and the wake-ups sent to those waits
/// that have not returned yet. The threads are quiescent when each one that has not ended
/// waits and no wake-up is on its way: none runs again unless something outside them acts.
///
/// It is exact for waits whose wake-ups are sent with the condition's mutex held (a waiter
/// enters its wait holding it, so a wake-up sees every waiter that entered); a wake-up sent
/// without the mutex may leave the threads counted as not quiescent, and the iteration then
/// ends as hung.
struct StressWaits {
    /// The waits on one condition.
    private struct Waits {
        let condition: SeamCondition
        /// The mutex the last waiter released.
        var mutex: SeamMutex
        var waiters: Set<SeamThreadID> = []
        /// Wake-ups sent whose waits have not returned: at most one a waiter.
        var wakesUnderWay = 0
    }

    /// What a thread that is about to wait does.
    enum Entry: Equatable {
        /// It waits, counted.
        case waits
        /// It is not one of the scenario's threads: it waits, uncounted.
        case untracked
        /// The scenario abandoned the waiting threads: it leaves instead of waiting.
        case leaves
    }

    private var running: Set<SeamThreadID> = []
    private var conditions: [ObjectIdentifier: Waits] = [:]
    /// Whether the scenario abandoned the threads that wait (``release()``): each leaves the
    /// wait it is in, or the next one it starts, by exiting.
    private(set) var released = false

    /// The scenario spawned `thread`.
    mutating func spawned(_ thread: SeamThreadID) {
        running.insert(thread)
    }

    /// `thread` ended.
    mutating func ended(_ thread: SeamThreadID) {
        running.remove(thread)
    }

    /// `thread` is about to wait on `condition` without a deadline, releasing `mutex`.
    mutating func willWait(_ thread: SeamThreadID, on condition: SeamCondition, releasing mutex: SeamMutex) -> Entry {
        guard running.contains(thread) else { return .untracked }
        if released { return .leaves }
        var waits = conditions[ObjectIdentifier(condition)] ?? Waits(condition: condition, mutex: mutex)
        waits.waiters.insert(thread)
        waits.mutex = mutex
        conditions[ObjectIdentifier(condition)] = waits
        return .waits
    }

    /// `thread`'s wait on `condition` returned; whether it leaves (the waits were released).
    mutating func didWait(_ thread: SeamThreadID, on condition: SeamCondition) -> Bool {
        let key = ObjectIdentifier(condition)
        guard var waits = conditions[key], waits.waiters.remove(thread) != nil else { return false }
        waits.wakesUnderWay = max(waits.wakesUnderWay - 1, 0)
        conditions[key] = waits.waiters.isEmpty ? nil : waits
        return released
    }

    /// A wake-up is about to be sent to `condition`'s waiters: one (a signal) or all (a
    /// broadcast).
    mutating func wakes(_ condition: SeamCondition, all: Bool) {
        guard var waits = conditions[ObjectIdentifier(condition)] else { return }
        waits.wakesUnderWay = all ? waits.waiters.count : min(waits.wakesUnderWay + 1, waits.waiters.count)
        conditions[ObjectIdentifier(condition)] = waits
    }

    /// Whether every thread that has not ended waits, and no wake-up is on its way to one.
    var isQuiescent: Bool {
        let waiting = conditions.values.reduce(into: Set<SeamThreadID>()) { $0.formUnion($1.waiters) }
        return running.isSubset(of: waiting) && conditions.values.allSatisfy { $0.wakesUnderWay == 0 }
    }

    /// Abandons the threads that wait: returns the conditions they wait on and their mutexes,
    /// for the caller to wake them all, holding the mutex (a thread counted as waiting may
    /// not have started its wait yet, but it holds the mutex until it has); each leaves its
    /// wait instead of returning from it.
    mutating func release() -> [(condition: SeamCondition, mutex: SeamMutex)] {
        released = true
        return conditions.values.map { ($0.condition, $0.mutex) }
    }
}
