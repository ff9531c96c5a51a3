@testable import Harness
import Testing

@Suite("Harness: the execution's map from shared objects")
struct ObjectMapTests {
    private final class Object {}

    @Test("set inserts a key it lacks and replaces the value of one it has, searched linearly or hashed")
    func setInsertsAndReplaces() {
        // More keys than the map searches linearly, so that both of its lookups are exercised.
        let objects = (0..<40).map { _ in Object() }
        var map = ObjectMap<Int>()
        for (index, object) in objects.enumerated() {
            map.set(ObjectIdentifier(object), to: index)
        }
        for (index, object) in objects.enumerated() {
            map.set(ObjectIdentifier(object), to: index * 10)
        }
        #expect(map.count == objects.count)
        #expect(objects.indices.allSatisfy { map[ObjectIdentifier(objects[$0])] == $0 * 10 })
        let other = Object()
        #expect(map[ObjectIdentifier(other)] == nil)
    }

    @Test("values come in the order their keys were first stored; insertIfAbsent keeps a key's first value")
    func valuesInInsertionOrder() {
        let objects = (0..<20).map { _ in Object() }
        var map = ObjectMap<Int>()
        for (index, object) in objects.enumerated().reversed() {
            map.insertIfAbsent(ObjectIdentifier(object), index)
        }
        for object in objects {
            map.insertIfAbsent(ObjectIdentifier(object), -1)
            map[ObjectIdentifier(object), default: -2] += 100
        }
        #expect(Array(map.values) == (0..<20).reversed().map { $0 + 100 })
    }

    @Test("modify changes a key's value in place and hands back what its body returns; a key without one is left alone")
    func modifyInPlace() {
        // Keys of another type than objects (as tasks' runtime IDs are), past the linear search.
        var map = SmallMap<UInt64, Int>()
        for key in UInt64(0)..<30 { map.set(key * 7, to: Int(key)) }
        let doubled = (UInt64(0)..<30).map { key in
            map.modify(key * 7) { value -> Int in
                value *= 2
                return value
            }
        }
        #expect(doubled == (0..<30).map { $0 * 2 })
        #expect((UInt64(0)..<30).allSatisfy { map[$0 * 7] == Int($0) * 2 })
        var called = false
        #expect(map.modify(1) { _ in called = true } == nil)
        #expect(!called)
        #expect(map.count == 30 && map[1] == nil)
    }
}
