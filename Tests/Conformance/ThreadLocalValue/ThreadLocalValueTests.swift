import Primitives
import Testing

/// Storage is process-wide and per thread, and the test runner reuses its threads: every
/// test uses its own full keys and touches values only on threads it spawns.
@Suite("ThreadLocalValue")
struct ThreadLocalValueTests {
    @Test("the full key is \"namespace.key\", or the key alone")
    func fullKey() {
        let namespaced = ThreadLocalValue<Int>(namespace: "TLVTests.fullKey", key: "count")
        #expect(namespaced.namespace == "TLVTests.fullKey")
        #expect(namespaced.key == "count")
        #expect(namespaced.fullKey == "TLVTests.fullKey.count")
        let bare = ThreadLocalValue<Int>(key: "TLVTests.fullKey.bare")
        #expect(bare.namespace == nil)
        #expect(bare.fullKey == "TLVTests.fullKey.bare")
    }

    @Test("each thread sees only the value it set")
    func valuesArePerThread() throws {
        let storage = ThreadLocalValue<String>(key: "TLVTests.perThread")
        let (own, other, ownAfterOther) = try runOnNewThread {
            storage.set("first")
            let own = storage.cachedValue()
            let other = try? runOnNewThread { storage.cachedValue() }
            return (own, other, storage.cachedValue())
        }
        #expect(own == "first")
        #expect(other == .some(nil))
        #expect(ownAfterOther == "first")
    }

    @Test("value() instantiates once per thread and caches; cachedValue() never instantiates")
    func instantiatesOncePerThread() throws {
        let instantiations = SeamAtomic(0)
        let storage = ThreadLocalValue<Int>(key: "TLVTests.instantiate") {
            instantiations.add(1)
        }
        let results = try (0..<3).map { _ in
            try runOnNewThread {
                [storage.cachedValue(), storage.value(), storage.value(), storage.cachedValue()]
            }
        }
        #expect(instantiations.load() == 3)
        for result in results {
            #expect(result[0] == nil)
            #expect(result[1] != nil)
            #expect(Set(result.dropFirst()).count == 1)
        }
        #expect(Set(results.map { $0[1] }).count == 3)
    }

    @Test("an instantiator that returns nil stores nothing and is asked again")
    func instantiatorReturningNil() throws {
        let instantiations = SeamAtomic(0)
        let storage = ThreadLocalValue<Int>(key: "TLVTests.nilInstantiator") {
            instantiations.add(1) >= 2 ? 7 : nil
        }
        let results = try runOnNewThread {
            [storage.value(), storage.cachedValue(), storage.value(), storage.value()]
        }
        #expect(results == [nil, nil, 7, 7])
        #expect(instantiations.load() == 2)
    }

    @Test("set(_:) replaces and releases the old value; remove() releases the value")
    func setAndRemoveRelease() throws {
        let counter = LifetimeCounter()
        let storage = ThreadLocalValue<LifetimeCounter.Tracked>(key: "TLVTests.setRemove")
        let live = try runOnNewThread {
            storage.remove()
            storage.set(counter.make())
            let afterSet = counter.liveCount
            storage.set(counter.make())
            let afterReplace = counter.liveCount
            storage.remove()
            let afterRemove = counter.liveCount
            return [afterSet, afterReplace, afterRemove, storage.cachedValue() == nil ? 0 : 1]
        }
        #expect(live == [1, 1, 0, 0])
        #expect(counter.createdCount == 2)
    }

    @Test("a thread's values are released when it exits, before join returns")
    func releasedAtThreadExit() throws {
        let counter = LifetimeCounter()
        let explicit = ThreadLocalValue<LifetimeCounter.Tracked>(key: "TLVTests.exit.explicit")
        let instantiated = ThreadLocalValue<LifetimeCounter.Tracked>(key: "TLVTests.exit.instantiated") {
            counter.make()
        }
        for _ in 0..<50 {
            let liveInside = try runOnNewThread {
                explicit.set(counter.make())
                _ = instantiated.value()
                return counter.liveCount
            }
            #expect(liveInside == 2)
            #expect(counter.liveCount == 0)
        }
        #expect(counter.createdCount == 100)
    }

    @Test("instances with the same full key share storage; other namespaces do not")
    func sameFullKeySharesStorage() throws {
        let first = ThreadLocalValue<Int>(namespace: "TLVTests.shared", key: "value")
        let second = ThreadLocalValue<Int>(namespace: "TLVTests.shared", key: "value")
        let otherNamespace = ThreadLocalValue<Int>(namespace: "TLVTests.other", key: "value")
        let bare = ThreadLocalValue<Int>(key: "value")
        let seen = try runOnNewThread {
            first.set(1)
            let beforeRemove = [second.cachedValue(), otherNamespace.cachedValue(), bare.cachedValue()]
            second.remove()
            return beforeRemove + [first.cachedValue()]
        }
        #expect(seen == [1, nil, nil, nil])
    }

    @Test(
        "creating an instance and accessing a value are not seam operations: thread-locals are not shared state"
    )
    func seamOperations() throws {
        let recorder = RecordingController()
        let storage = recorder.record {
            ThreadLocalValue<Int>(key: "TLVTests.recorded") { 1 }
        }
        #expect(recorder.kinds.isEmpty)
        let accessRecorder = RecordingController()
        let seen = ResultBox<[Int?]>()
        try accessRecorder.record {
            try Seam.spawnThread {
                let instantiated = storage.value()
                storage.set(2)
                let cached = storage.cachedValue()
                storage.remove()
                seen.value = [instantiated, cached, storage.cachedValue()]
            }.get().join()
        }
        #expect(seen.value == [1, 2, nil])
        #expect(accessRecorder.kinds == [.spawn, .start, .exit, .join])
    }

    @Test("the same full key with another value type traps, naming the mistake")
    func typeMismatchTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ThreadLocalValue<Int>(key: "TLVTests.mismatch")
            _ = ThreadLocalValue<String>(key: "TLVTests.mismatch")
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                #"the key "TLVTests.mismatch" already stores Swift.Int and cannot also store Swift.String"#))
    }

    @Test("an empty key traps")
    func emptyKeyTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = ThreadLocalValue<Int>(key: "")
        }
    }
}
