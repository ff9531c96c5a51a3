/// A fingerprint of one execution's interleaving, after Fray's timeline coverage: for each
/// shared object, the order in which threads and tasks took it (the task executor is one,
/// whose lanes take the tasks' jobs). Two executions that hand every object from lane to
/// lane in the same order get the same fingerprint, whatever else differs. O(1) per access:
/// one lookup of the object among those taken so far.
struct InterleavingFingerprint {
    /// The hash of the lanes that took each object so far, the objects in order of first
    /// access: an object's place there is its number (object addresses differ from one
    /// execution to the next).
    private var timelines = ObjectMap<UInt64>()

    /// Notes that `lane` (a thread, or a task's number offset past the threads) accessed `object`.
    mutating func noteAccess(to object: ObjectIdentifier, by lane: Int) {
        Self.mix(lane, into: &timelines[object, default: Self.emptyTimeline])
    }

    /// The hash of a timeline no lane took yet (FNV-1a's offset basis).
    private static var emptyTimeline: UInt64 { 0xCBF2_9CE4_8422_2325 }

    private static func mix(_ lane: Int, into hash: inout UInt64) {
        hash = (hash ^ UInt64(truncatingIfNeeded: lane &+ 1)) &* 0x0000_0100_0000_01B3
    }

    /// The fingerprint: the objects' timelines combined independently of their order.
    var value: UInt64 {
        timelines.values.enumerated().reduce(0) { sum, timeline in
            var mixed = SplitMix64(seed: timeline.element ^ (UInt64(timeline.offset) &* 0x9E37_79B9_7F4A_7C15))
            return sum &+ mixed.next()
        }
    }

    /// Forgets every access, keeping the storage for the next execution's.
    mutating func removeAll() {
        timelines.removeAll()
    }
}
