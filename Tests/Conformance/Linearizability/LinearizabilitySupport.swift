import Harness

/// A completed call spanning `span` (invocation…response), for writing histories by hand.
func call<Operation, Result>(_ client: Int, _ operation: Operation, _ result: Result, _ span: ClosedRange<Int>)
    -> History<Operation, Result>.Entry
{
    .init(client: client, operation: operation, result: result, invocation: span.lowerBound, response: span.upperBound)
}

/// A pending call invoked at `invocation`.
func pending<Operation, Result>(_ client: Int, _ operation: Operation, from invocation: Int)
    -> History<Operation, Result>.Entry
{
    .init(client: client, operation: operation, invocation: invocation)
}

/// A read/write register holding an `Int`.
struct RegisterModel: SequentialModel, CustomStringConvertible {
    enum Operation: Hashable, CustomStringConvertible {
        case write(Int)
        case read
        var description: String {
            switch self {
            case .write(let value): "write(\(value))"
            case .read: "read()"
            }
        }
    }

    enum Result: Hashable, CustomStringConvertible {
        case written
        case value(Int)
        var description: String {
            switch self {
            case .written: "ok"
            case .value(let value): "\(value)"
            }
        }
    }

    var value = 0

    mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .write(let newValue):
            value = newValue
            return .written
        case .read:
            return .value(value)
        }
    }

    var description: String { "register \(value)" }
}

/// A key-value map whose keys are independent parts.
struct KeyValueModel: SequentialModel, CustomStringConvertible {
    enum Operation: Hashable, CustomStringConvertible {
        case put(String, Int)
        case get(String)
        var key: String {
            switch self {
            case .put(let key, _), .get(let key): key
            }
        }
        var description: String {
            switch self {
            case .put(let key, let value): "put(\(key), \(value))"
            case .get(let key): "get(\(key))"
            }
        }
    }

    var store: [String: Int] = [:]

    mutating func apply(_ operation: Operation) -> Int? {
        switch operation {
        case .put(let key, let value):
            defer { store[key] = value }
            return store[key]
        case .get(let key):
            return store[key]
        }
    }

    static func partitionKey(of operation: Operation) -> String? { operation.key }

    var description: String { "map \(store.sorted { $0.key < $1.key })" }
}

/// The same map without partitions: checked whole.
struct UnpartitionedKeyValueModel: SequentialModel {
    var map = KeyValueModel()
    mutating func apply(_ operation: KeyValueModel.Operation) -> Int? { map.apply(operation) }
}

/// Generates histories of concurrent clients calling an object: each call is invoked, takes
/// effect at one moment (where `apply` runs on the implementation), and responds, with the
/// three steps of all clients interleaved at random. With a correct implementation the
/// history is linearizable by construction; a client stopped early leaves its call pending,
/// before or after it took effect.
struct HistoryGenerator {
    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// `clients` clients each making `callsPerClient` calls chosen by `nextOperation`, applied
    /// to `implementation` when they take effect; with `stopEarly`, some clients stop during
    /// their last call, before or after it took effect, leaving it pending.
    mutating func history<Operation, Result>(
        clients: Int,
        callsPerClient: Int,
        stopEarly: Bool,
        nextOperation: (inout HistoryGenerator) -> Operation,
        implementation: (inout HistoryGenerator, Operation) -> Result
    ) -> History<Operation, Result> {
        typealias Phase = ClientPhase<Result>
        var history = History<Operation, Result>()
        var phases = [Phase](repeating: .idle, count: clients)
        var made = [Int](repeating: 0, count: clients)
        let stops: [ClientStop?] = (0..<clients).map { _ in
            stopEarly && chance(30) ? (chance(50) ? .beforeEffect : .afterEffect) : nil
        }
        while true {
            let active = (0..<clients).filter { if case .done = phases[$0] { false } else { true } }
            guard !active.isEmpty else { break }
            let client = active[below(active.count)]
            let last = made[client] == callsPerClient
            switch phases[client] {
            case .idle:
                if last {
                    phases[client] = .done
                } else {
                    made[client] += 1
                    phases[client] = .invoked(entry: history.invoke(nextOperation(&self), client: client))
                }
            case .invoked(let entry):
                phases[client] =
                    last && stops[client] == .beforeEffect
                    ? .done
                    : .applied(entry: entry, result: implementation(&self, history.entries[entry].operation))
            case .applied(let entry, let result):
                if last && stops[client] == .afterEffect {
                    phases[client] = .done
                } else {
                    history.respond(entry, with: result)
                    phases[client] = .idle
                }
            case .done:
                break
            }
        }
        return history
    }
}

/// Where a generated client is in its current call.
enum ClientPhase<Result> {
    case idle
    case invoked(entry: Int)
    case applied(entry: Int, result: Result)
    case done
}

/// Where a generated client stops for good, leaving its last call pending.
enum ClientStop {
    case beforeEffect
    case afterEffect
}
