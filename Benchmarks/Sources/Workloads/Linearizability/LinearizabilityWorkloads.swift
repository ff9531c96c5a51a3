import Harness

/// The linearizability checker on the histories its goals name, each compared with replaying
/// one known linearization of the same history through the model: the least any checker
/// must do, so the ratio says how much deciding costs over verifying.
enum LinearizabilityWorkloads {
    /// 3 clients × 5 calls on a queue, overlapping, checked by the search (Wing–Gong–Lowe).
    static let smallQueue = RecordedHistories.queue(clients: 3, callsPerClient: 5, seed: 7)
    /// 1,000 calls of 8 clients on a map of 10 keys, checked key by key by the search.
    static let keyValue = RecordedHistories.keyValue(clients: 8, callsPerClient: 125, keys: 10, seed: 11)
    /// The same map history with one read in the middle answering a value nobody wrote: not
    /// linearizable, so the search of that key must exhaust every order before it says so.
    static let corruptedKeyValue = RecordedHistories.keyValue(
        clients: 8, callsPerClient: 125, keys: 10, seed: 11, corruptingReadAt: 500)
    /// 10,000 calls of 8 clients on a queue whose values are unique: the fast queue check.
    static let longQueue = RecordedHistories.queue(clients: 8, callsPerClient: 1_250, seed: 13)

    /// 10,000 calls of 8 clients on a stack whose values are unique: the fast stack check.
    static let longStack = RecordedHistories.stack(clients: 8, callsPerClient: 1_250, seed: 17)
    /// 10,000 calls of 8 clients on a set of 1,000 values each inserted once: the fast set check.
    static let longSet = RecordedHistories.set(clients: 8, callsPerClient: 1_250, seed: 19)

    static let comparisons = [
        Comparison(
            checking(
                smallQueue, model: QueueModel<Int>(), name: "search: queue, 3 clients × 5 calls",
                checker: LinearizabilityChecker(usesFastChecks: false)),
            against: replaying(
                smallQueue, model: QueueModel<Int>(), name: "replay one linearization (3 × 5 queue calls)"),
            target: .under(.microseconds(50))
        ),
        Comparison(
            checking(keyValue, model: KeyValueModel(), name: "search by key: map, 1,000 calls, 8 clients, 10 keys"),
            against: replaying(keyValue, model: KeyValueModel(), name: "replay one linearization (1,000 map calls)"),
            target: .under(.seconds(1))
        ),
        Comparison(
            checking(
                corruptedKeyValue, model: KeyValueModel(),
                name: "search by key: the same map history, one read corrupted", linearizable: false),
            against: replaying(keyValue, model: KeyValueModel(), name: "replay one linearization (1,000 map calls)"),
            target: .none
        ),
        Comparison(
            checking(longQueue, model: QueueModel<Int>(), name: "unique-value queue check: 10,000 calls, 8 clients"),
            against: replaying(
                longQueue, model: QueueModel<Int>(), name: "replay one linearization (10,000 queue calls)"),
            target: .under(.milliseconds(100))
        ),
        Comparison(
            checking(longStack, model: StackModel<Int>(), name: "unique-value stack check: 10,000 calls, 8 clients"),
            against: replaying(
                longStack, model: StackModel<Int>(), name: "replay one linearization (10,000 stack calls)"),
            target: .none
        ),
        Comparison(
            checking(longSet, model: SetModel<Int>(), name: "unique-value set check: 10,000 calls, 8 clients"),
            against: replaying(longSet, model: SetModel<Int>(), name: "replay one linearization (10,000 set calls)"),
            target: .none
        )
    ]

    /// One operation: one check of `history`, which must come out as `linearizable` says.
    private static func checking<Model: SequentialModel>(
        _ history: History<Model.Operation, Model.Result>,
        model: Model,
        name: String,
        checker: LinearizabilityChecker = LinearizabilityChecker(),
        linearizable: Bool = true
    ) -> Workload where Model.Operation: Sendable, Model.Result: Sendable, Model: Sendable {
        Workload(name) { operations in
            var decided = 0
            let elapsed = timed {
                for _ in 0..<operations {
                    let verdict = checker.check(history, model: model)
                    precondition(
                        linearizable ? verdict.isLinearizable : verdict.violation != nil,
                        "the benchmark history is \(linearizable ? "" : "not ")linearizable: \(verdict)"
                    )
                    decided += verdict.steps
                }
            }
            consume(decided)
            return elapsed
        }
    }

    /// One operation: applying one linearization of `history` (found beforehand) to `model`
    /// and comparing every result.
    private static func replaying<Model: SequentialModel>(
        _ history: History<Model.Operation, Model.Result>,
        model: Model,
        name: String
    ) -> Workload where Model.Operation: Sendable, Model.Result: Sendable, Model: Sendable {
        let order = LinearizabilityChecker.check(history, model: model).order!
        return Workload(name) { operations in
            var agreed = 0
            let elapsed = timed {
                for _ in 0..<operations {
                    var state = model
                    for entry in order {
                        let answer = state.apply(history.entries[entry].operation)
                        if history.entries[entry].result.map({ $0 == answer }) ?? true { agreed += 1 }
                    }
                }
            }
            consume(agreed)
            return elapsed
        }
    }
}

/// A map from keys to values whose keys are independent parts; `put` answers the previous
/// value.
public struct KeyValueModel: SequentialModel, Sendable {
    public enum Operation: Hashable, Sendable {
        case put(Int, Int)
        case get(Int)
    }

    var store: [Int: Int] = [:]

    public init() {}

    public mutating func apply(_ operation: Operation) -> Int? {
        switch operation {
        case .put(let key, let value):
            defer { store[key] = value }
            return store[key]
        case .get(let key):
            return store[key]
        }
    }

    public static func partitionKey(of operation: Operation) -> Int? {
        switch operation {
        case .put(let key, _), .get(let key): key
        }
    }
}

/// Histories of concurrent clients on correct objects: each call is invoked, takes effect
/// at one moment and responds, the three steps of all clients interleaved by a seeded
/// generator, so the history is linearizable and calls overlap as in a real run.
public enum RecordedHistories {
    /// A queue history: half enqueues of fresh values, half dequeues.
    public static func queue(clients: Int, callsPerClient: Int, seed: UInt64) -> History<
        QueueOperation<Int>, QueueResult<Int>
    > {
        var queue: [Int] = []
        var front = 0
        var next = 0
        return record(clients: clients, callsPerClient: callsPerClient, seed: seed) { random in
            if random.next() % 2 == 0 {
                next += 1
                return .enqueue(next)
            }
            return .dequeue
        } effect: { operation in
            switch operation {
            case .enqueue(let value):
                queue.append(value)
                return .enqueued
            case .dequeue:
                guard front < queue.count else { return .empty }
                front += 1
                return .dequeued(queue[front - 1])
            }
        }
    }

    /// A stack history: half pushes of fresh values, half pops.
    public static func stack(clients: Int, callsPerClient: Int, seed: UInt64) -> History<
        StackOperation<Int>, StackResult<Int>
    > {
        var model = StackModel<Int>()
        var next = 0
        return record(clients: clients, callsPerClient: callsPerClient, seed: seed) { random in
            if random.next() % 2 == 0 {
                next += 1
                return .push(next)
            }
            return .pop
        } effect: {
            model.apply($0)
        }
    }

    /// A set history: a tenth inserts of fresh values, the rest removals and lookups of
    /// values inserted so far.
    public static func set(clients: Int, callsPerClient: Int, seed: UInt64) -> History<SetOperation<Int>, Bool> {
        var model = SetModel<Int>()
        var next = 0
        return record(clients: clients, callsPerClient: callsPerClient, seed: seed) { random in
            let roll = random.next() % 10
            if roll == 0 || next == 0 {
                next += 1
                return .insert(next)
            }
            let value = 1 + Int(random.next() % UInt64(next))
            return roll < 4 ? .remove(value) : .contains(value)
        } effect: {
            model.apply($0)
        }
    }

    /// A map history over `keys` keys: half puts of fresh values, half gets. With
    /// `corruptingReadAt`, the first get from that many calls on answers a value never put.
    public static func keyValue(
        clients: Int, callsPerClient: Int, keys: Int, seed: UInt64, corruptingReadAt corrupted: Int? = nil
    ) -> History<KeyValueModel.Operation, Int?> {
        var model = KeyValueModel()
        var next = 0
        var applied = 0
        return record(clients: clients, callsPerClient: callsPerClient, seed: seed) { random in
            let key = Int(random.next() % UInt64(keys))
            next += 1
            return random.next() % 2 == 0 ? .put(key, next) : .get(key)
        } effect: { operation in
            applied += 1
            if let corrupted, applied >= corrupted, case .get = operation {
                applied = .min
                return -1
            }
            return model.apply(operation)
        }
    }

    private static func record<Operation, Result>(
        clients: Int,
        callsPerClient: Int,
        seed: UInt64,
        operation: (inout Xorshift) -> Operation,
        effect: (Operation) -> Result
    ) -> History<Operation, Result> {
        var random = Xorshift(seed: seed)
        var history = History<Operation, Result>()
        // Per client: the entry in flight, and its result once it took effect.
        var inFlight: [(entry: Int, result: Result?)?] = Array(repeating: nil, count: clients)
        var made = [Int](repeating: 0, count: clients)
        while true {
            let active = (0..<clients).filter { made[$0] < callsPerClient || inFlight[$0] != nil }
            guard !active.isEmpty else { return history }
            let client = active[Int(random.next() % UInt64(active.count))]
            switch inFlight[client] {
            case nil:
                made[client] += 1
                inFlight[client] = (history.invoke(operation(&random), client: client), nil)
            case (let entry, nil)?:
                inFlight[client] = (entry, effect(history.entries[entry].operation))
            case (let entry, let result?)?:
                history.respond(entry, with: result)
                inFlight[client] = nil
            }
        }
    }
}

/// Marsaglia's xorshift64*: a few lines of deterministic randomness.
public struct Xorshift {
    private var state: UInt64

    init(seed: UInt64) { state = seed | 1 }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
