/// A fingerprint of one execution's interleaving, after Fray's timeline coverage: for each
/// shared object, the order in which threads and tasks took it. Two executions that hand
/// every object from lane to lane in the same order get the same fingerprint, whatever
/// else differs. O(1) per access.
struct InterleavingFingerprint {
    /// Each object's number, in order of first access (object addresses differ from one
    /// execution to the next), and the hash of the lanes that took it so far.
    private var timelines = ObjectMap<(number: Int, hash: UInt64)>()

    /// Notes that `lane` (a thread, or a task's number offset past the threads) accessed `object`.
    mutating func noteAccess(to object: ObjectIdentifier, by lane: Int) {
        var timeline = timelines[object, default: (timelines.count, 0xCBF2_9CE4_8422_2325)]
        timeline.hash = (timeline.hash ^ UInt64(truncatingIfNeeded: lane &+ 1)) &* 0x0000_0100_0000_01B3
        timelines.set(object, to: timeline)
    }

    /// The fingerprint: the objects' timelines combined independently of dictionary order.
    var value: UInt64 {
        timelines.values.reduce(0) { sum, timeline in
            var mixed = SplitMix64(seed: timeline.hash ^ (UInt64(timeline.number) &* 0x9E37_79B9_7F4A_7C15))
            return sum &+ mixed.next()
        }
    }
}
