/// A set of interleaving fingerprints (``InterleavingFingerprint/value``): open addressing
/// with linear probing, indexed by the fingerprint's own bits, which are a hash already.
/// A `Set<UInt64>` hashed each one again with the process's seeded hasher, for a third of
/// the search's own cost of an execution with no threads.
struct FingerprintSet {
    /// The slots, a power of two of them, at most half full; 0 marks an empty slot.
    private var slots: [UInt64] = Array(repeating: 0, count: 64)
    /// Whether 0, which marks an empty slot, is in the set.
    private var containsZero = false
    /// How many fingerprints the slots hold.
    private var stored = 0

    /// How many fingerprints the set holds.
    var count: Int { stored + (containsZero ? 1 : 0) }

    /// Adds `fingerprint`; returns whether it was not in the set.
    mutating func insert(_ fingerprint: UInt64) -> Bool {
        guard fingerprint != 0 else {
            defer { containsZero = true }
            return !containsZero
        }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while slots[slot] != 0 {
            if slots[slot] == fingerprint { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = fingerprint
        stored += 1
        if stored * 2 > slots.count { grow() }
        return true
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        stored = 0
        for fingerprint in old where fingerprint != 0 { _ = insert(fingerprint) }
    }
}
