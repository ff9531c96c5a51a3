/// A fingerprint of one execution's interleaving, after Fray's timeline coverage: for each
/// shared object, the order in which threads and tasks took it, and the order in which the
/// task executor's lanes took the tasks' jobs. Two executions that hand every object from
/// lane to lane, and run the tasks' jobs, in the same order get the same fingerprint,
/// whatever else differs. O(1) per access: one lookup of the object among those taken so far.
struct InterleavingFingerprint {
    /// The hash of the lanes that took each object so far, the objects in order of first
    /// access: an object's place there is its number (object addresses differ from one
    /// execution to the next).
    private var timelines = ObjectMap<UInt64>()
    /// The hash of the tasks whose jobs ran so far, in order.
    private var jobTimeline = emptyTimeline

    /// Notes that `lane` (a thread, or a task's number offset past the threads) accessed `object`.
    mutating func noteAccess(to object: ObjectIdentifier, by lane: Int) {
        Self.mix(lane, into: &timelines[object, default: Self.emptyTimeline])
    }

    /// Notes that a lane of the task executor took a job of task `task` (from 0): the executor
    /// is an object its lanes take the jobs from, one at a time, kept apart from the map, as
    /// it is taken at every job.
    mutating func noteJob(of task: Int) {
        Self.mix(task, into: &jobTimeline)
    }

    /// The hash of a timeline no lane took yet (FNV-1a's offset basis).
    private static var emptyTimeline: UInt64 { 0xCBF2_9CE4_8422_2325 }

    private static func mix(_ lane: Int, into hash: inout UInt64) {
        hash = (hash ^ UInt64(truncatingIfNeeded: lane &+ 1)) &* 0x0000_0100_0000_01B3
    }

    /// The fingerprint: the objects' timelines combined independently of their order, and
    /// the jobs' order.
    var value: UInt64 {
        let objects = timelines.values.enumerated().reduce(UInt64(0)) { sum, timeline in
            var mixed = SplitMix64(seed: timeline.element ^ (UInt64(timeline.offset) &* 0x9E37_79B9_7F4A_7C15))
            return sum &+ mixed.next()
        }
        // Salted as no object's place is: the jobs' order is not an object's timeline.
        var jobs = SplitMix64(seed: jobTimeline ^ 0xA24B_AED4_963E_E407)
        return objects &+ jobs.next()
    }

    /// Forgets every access, keeping the storage for the next execution's.
    mutating func removeAll() {
        timelines.removeAll()
        jobTimeline = Self.emptyTimeline
    }
}
