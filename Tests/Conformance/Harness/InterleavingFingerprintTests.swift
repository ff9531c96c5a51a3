@testable import Harness
import Testing

@Suite("Harness: the fingerprint of an execution's interleaving")
struct InterleavingFingerprintTests {
    private final class Object {}

    /// The fingerprint of `accesses`, each an object (by its place in `objects`) and the lane
    /// that took it, noted in order into `fingerprint`.
    private static func value(
        of accesses: [(object: Int, lane: Int)], on objects: [Object],
        into fingerprint: inout InterleavingFingerprint
    ) -> UInt64 {
        for access in accesses {
            fingerprint.noteAccess(to: ObjectIdentifier(objects[access.object]), by: access.lane)
        }
        return fingerprint.value
    }

    private static func value(of accesses: [(object: Int, lane: Int)], on objects: [Object]) -> UInt64 {
        var fingerprint = InterleavingFingerprint()
        return value(of: accesses, on: objects, into: &fingerprint)
    }

    @Test("executions that hand each object from lane to lane in the same order share a fingerprint")
    func sameTimelinesSameFingerprint() {
        let first = (0..<2).map { _ in Object() }
        let second = (0..<2).map { _ in Object() }
        // The objects of another execution are other objects; the accesses to different
        // objects interleave differently, and each object passes from lane to lane as before.
        let one = Self.value(of: [(0, 1), (1, 2), (0, 2), (1, 1)], on: first)
        let other = Self.value(of: [(0, 1), (0, 2), (1, 2), (1, 1)], on: second)
        #expect(one == other)
    }

    @Test("an object taken by its lanes in another order, or another number of times, changes the fingerprint")
    func otherTimelineOtherFingerprint() {
        let objects = (0..<2).map { _ in Object() }
        let base = Self.value(of: [(0, 1), (0, 2), (1, 1)], on: objects)
        #expect(Self.value(of: [(0, 2), (0, 1), (1, 1)], on: objects) != base)
        #expect(Self.value(of: [(0, 1), (0, 2), (1, 1), (1, 1)], on: objects) != base)
        // The same timelines on objects first taken in the other order.
        #expect(Self.value(of: [(1, 1), (0, 1), (0, 2)], on: objects) != base)
    }

    @Test("the order the tasks' jobs ran in is part of the fingerprint, beside the objects' timelines")
    func jobOrderIsPartOfTheFingerprint() {
        let objects = [Object()]
        func value(jobs: [Int], accesses: [(object: Int, lane: Int)] = [(0, 1)]) -> UInt64 {
            var fingerprint = InterleavingFingerprint()
            for task in jobs { fingerprint.noteJob(of: task) }
            return Self.value(of: accesses, on: objects, into: &fingerprint)
        }
        #expect(value(jobs: [0, 1, 0]) == value(jobs: [0, 1, 0]))
        #expect(value(jobs: [0, 1, 0]) != value(jobs: [1, 0, 0]))
        #expect(value(jobs: [0, 1, 0]) != value(jobs: [0, 1]))
        #expect(value(jobs: [0]) != value(jobs: []))
        #expect(value(jobs: [0, 1], accesses: [(0, 1), (0, 2)]) != value(jobs: [0, 1], accesses: [(0, 2), (0, 1)]))
    }

    @Test("a fingerprint emptied for the next execution is what a new one would be")
    func emptiedFingerprintStartsAgain() {
        let objects = (0..<20).map { _ in Object() }
        let accesses = (0..<60).map { (object: $0 % objects.count, lane: $0 % 3) }
        var reused = InterleavingFingerprint()
        reused.noteJob(of: 1)
        _ = Self.value(of: [(5, 1), (7, 2), (5, 2)], on: objects, into: &reused)
        reused.removeAll()
        #expect(Self.value(of: accesses, on: objects, into: &reused) == Self.value(of: accesses, on: objects))
        reused.removeAll()
        #expect(reused.value == InterleavingFingerprint().value)
    }
}
