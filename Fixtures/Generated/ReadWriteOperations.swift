import Harness
import Primitives

/// A map of `Int` to `Int` guarded by a read/write coordinator: reads run as reads, writes as
/// synchronous or enqueued writes. A read takes a scheduling point before it looks, as a
/// real read takes a while, so that other calls can overlap it.
public final class GuardedMap<Coordinator: EnqueuingReadWriteCoordinating>: @unchecked Sendable {
    private let coordinator: Coordinator
    /// Read inside the coordinator's reads, written inside its writes.
    private var values: [Int: Int] = [:]

    /// An empty map guarded by `coordinator`.
    public init(_ coordinator: Coordinator) {
        self.coordinator = coordinator
    }

    /// The value at `key`, read as a read.
    public func read(_ key: Int) -> Int? {
        coordinator.read {
            Seam.yield()
            return values[key]
        }
    }

    /// Sets the value at `key` with a synchronous write.
    public func write(_ key: Int, _ value: Int) {
        coordinator.write { values[key] = value }
    }

    /// Sets the value at `key` with an enqueued write.
    public func enqueueWrite(_ key: Int, _ value: Int) {
        coordinator.enqueueWrite { self.values[key] = value }
    }
}

/// A map of `Int` to `Int` as a sequential model, one part per key.
public struct KeyValueModel: SequentialModel, Sendable, CustomStringConvertible {
    /// The map's operations.
    public enum Operation: Hashable, Sendable, CustomStringConvertible {
        case read(key: Int)
        case write(key: Int, value: Int)
        case enqueueWrite(key: Int, value: Int)

        /// The key the operation touches.
        public var key: Int {
            switch self {
            case .read(let key), .write(let key, _), .enqueueWrite(let key, _): key
            }
        }

        public var description: String {
            switch self {
            case .read(let key): "read(\(key))"
            case let .write(key, value): "write(\(key), \(value))"
            case let .enqueueWrite(key, value): "enqueueWrite(\(key), \(value))"
            }
        }
    }

    /// What they return.
    public enum Result: Hashable, Sendable, CustomStringConvertible {
        case value(Int?)
        case written

        public var description: String {
            switch self {
            case .value(let value): value.map(String.init) ?? "nil"
            case .written: "written"
            }
        }
    }

    /// The map.
    public var values: [Int: Int] = [:]

    /// An empty map.
    public init() {}

    public mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .read(let key):
            return .value(values[key])
        case let .write(key, value), let .enqueueWrite(key, value):
            values[key] = value
            return .written
        }
    }

    public static func partitionKey(of operation: Operation) -> Int? { operation.key }

    public var description: String { "map \(values.sorted { $0.key < $1.key })" }
}

/// The generated scenarios of a read/write coordinator as a guarded map: reads, writes and
/// enqueued writes of keys 0 and 1, values 1 to 3.
public enum ReadWriteOperations {
    /// The operations on a fresh map guarded by a coordinator from `make`.
    public static func test<Coordinator: EnqueuingReadWriteCoordinating>(
        _ make: @escaping @Sendable () -> Coordinator
    ) -> LinearizabilityTest<GuardedMap<Coordinator>, KeyValueModel> {
        let keys = Generator.int(in: 0...1)
        let entries = Generator.zip(keys, .int(in: 1...3))
        return LinearizabilityTest(model: KeyValueModel()) { GuardedMap(make()) }
            .operation(KeyValueModel.Operation.read, keys) { map, key in .value(map.read(key)) }
            .operation({ KeyValueModel.Operation.write(key: $0.0, value: $0.1) }, entries) { map, entry in
                map.write(entry.0, entry.1)
                return .written
            }
            .operation({ KeyValueModel.Operation.enqueueWrite(key: $0.0, value: $0.1) }, entries) { map, entry in
                map.enqueueWrite(entry.0, entry.1)
                return .written
            }
    }
}
