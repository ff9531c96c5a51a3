@testable import Harness
import Testing

@Suite("Harness: the set of thread numbers a decision visits")
struct ThreadSetTests {
    @Test("members come out in ascending order across all four words; remove and union act on each")
    func membersInOrder() {
        let members = [0, 1, 63, 64, 65, 127, 128, 200, 254, 255]
        var set = ThreadSet()
        #expect(set.isEmpty)
        for thread in members.reversed() { set.insert(thread) }
        #expect(Array(set) == members)
        #expect(members.allSatisfy(set.contains))
        #expect(!set.contains(2) && !set.contains(129))
        set.remove(64)
        set.remove(255)
        set.remove(3)
        #expect(Array(set) == [0, 1, 63, 65, 127, 128, 200, 254])
        var other = ThreadSet()
        other.insert(2)
        other.insert(64)
        other.insert(128)
        #expect(Array(set.union(other)) == [0, 1, 2, 63, 64, 65, 127, 128, 200, 254])
        for thread in members { set.remove(thread) }
        #expect(set.isEmpty && Array(set).isEmpty)
    }
}
