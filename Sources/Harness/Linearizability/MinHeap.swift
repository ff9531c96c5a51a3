/// A binary min-heap of `(key, item)` pairs, for the fast checks' "earliest remaining
/// response" queries.
struct MinHeap {
    private var storage: [(key: Int, item: Int)] = []

    init(_ elements: [(key: Int, item: Int)]) {
        storage = elements
        for index in stride(from: storage.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    var top: (key: Int, item: Int)? { storage.first }

    mutating func removeTop() {
        storage.swapAt(0, storage.count - 1)
        storage.removeLast()
        if !storage.isEmpty { siftDown(0) }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = parent * 2 + 1
            guard left < storage.count else { return }
            var child = left
            if left + 1 < storage.count, storage[left + 1].key < storage[left].key { child = left + 1 }
            guard storage[child].key < storage[parent].key else { return }
            storage.swapAt(child, parent)
            parent = child
        }
    }
}
