/// A map from the shared objects of one execution to what the scheduler knows of them.
typealias ObjectMap<Value> = SmallMap<ObjectIdentifier, Value>

/// A map of the few keys an execution meets (its shared objects, its tasks) to what the
/// scheduler knows of them, searched linearly while it is small and through a hash index
/// once it grows: an execution touches a handful of objects at every step, where hashing
/// each key cost more than comparing it with a few others. Keys and values share one array,
/// in the order the keys were first stored, so a map of a few keys costs one allocation.
struct SmallMap<Key: Hashable, Value> {
    private var entries: [(key: Key, value: Value)] = []
    /// Each key's position, built once there are more than ``linearLimit`` keys.
    private var positions: [Key: Int]?
    private static var linearLimit: Int { 16 }
    /// The room a map takes at its first key: enough for a small scenario's objects.
    private static var initialCapacity: Int { 4 }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The values, in the order their keys were inserted.
    var values: some Collection<Value> { entries.lazy.map(\.value) }

    /// The position of `key`'s value, or `nil` when it has none.
    private func position(of key: Key) -> Int? {
        if let positions { return positions[key] }
        // By index, reading the key alone: a closure over whole entries would copy each
        // value, retaining and releasing an object's at every comparison.
        for index in entries.indices where entries[index].key == key { return index }
        return nil
    }

    /// Adds `key` with `value`; `key` must not be in the map.
    private mutating func insert(_ key: Key, _ value: Value) -> Int {
        if entries.capacity == 0 { entries.reserveCapacity(Self.initialCapacity) }
        entries.append((key, value))
        let position = entries.count - 1
        if positions != nil {
            positions?[key] = position
        } else if entries.count > Self.linearLimit {
            positions = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].key, $0) })
        }
        return position
    }

    subscript(key: Key) -> Value? {
        position(of: key).map { entries[$0].value }
    }

    /// `key`'s value, which is `defaultValue` (and stored) when it had none.
    subscript(key: Key, default defaultValue: @autoclosure () -> Value) -> Value {
        get { self[key] ?? defaultValue() }
        _modify {
            let position = position(of: key) ?? insert(key, defaultValue())
            yield &entries[position].value
        }
    }

    /// Stores `value` for `key`, replacing the value it had. Unlike assigning through
    /// ``subscript(_:default:)``, whose default a `_modify` accessor keeps alive across its
    /// yield, this allocates nothing when `key` is in the map already.
    mutating func set(_ key: Key, to value: Value) {
        if let position = position(of: key) {
            entries[position].value = value
        } else {
            _ = insert(key, value)
        }
    }

    /// Changes `key`'s value in place with `body`, looking the key up once; `nil`, without
    /// calling `body`, when `key` has no value.
    mutating func modify<Result>(_ key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let position = position(of: key) else { return nil }
        return body(&entries[position].value)
    }

    /// Stores `value` for `key` unless `key` has a value already.
    mutating func insertIfAbsent(_ key: Key, _ value: @autoclosure () -> Value) {
        if position(of: key) == nil { _ = insert(key, value()) }
    }

    func contains(_ key: Key) -> Bool {
        position(of: key) != nil
    }

    /// Removes every key, keeping the storage for the keys to come.
    mutating func removeAll() {
        // Most maps an execution keeps are empty at its end: nothing to write back then.
        guard !entries.isEmpty || positions != nil else { return }
        entries.empty()
        positions = nil
    }
}
