import Harness
import Primitives

/// A box office's seats as a sequential model: a reservation takes a free seat if there is
/// one, a cancellation gives a reserved one back, and `available` counts the free ones.
struct BoxOfficeModel: SequentialModel, Sendable {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
        case reserve
        case cancel
        case available

        var description: String {
            switch self {
            case .reserve: "reserve()"
            case .cancel: "cancel()"
            case .available: "available()"
            }
        }
    }

    enum Result: Hashable, Sendable, CustomStringConvertible {
        case granted
        case refused
        case seats(Int)

        var description: String {
            switch self {
            case .granted: "granted"
            case .refused: "refused"
            case .seats(let count): "\(count)"
            }
        }
    }

    let capacity: Int
    var free: Int

    init(capacity: Int) {
        self.capacity = capacity
        free = capacity
    }

    mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .reserve:
            guard free > 0 else { return .refused }
            free -= 1
            return .granted
        case .cancel:
            guard free < capacity else { return .refused }
            free += 1
            return .granted
        case .available:
            return .seats(free)
        }
    }
}

/// A box office written as people write one: each operation checks the free seats, then
/// acts on what it read. Two reservations that both read the last free seat both get it
/// (and two cancellations can lose one); `betweenCheckAndAct` runs between a reservation's
/// check and its act, where a test can hold the window open.
final class BoxOffice: Sendable {
    private let capacity: Int
    private let free: SeamAtomic<Int>
    private let betweenCheckAndAct: @Sendable () -> Void

    init(capacity: Int, betweenCheckAndAct: @escaping @Sendable () -> Void = {}) {
        self.capacity = capacity
        free = SeamAtomic(capacity)
        self.betweenCheckAndAct = betweenCheckAndAct
    }

    func reserve() -> Bool {
        let left = free.load()
        guard left > 0 else { return false }
        betweenCheckAndAct()
        free.store(left - 1)
        return true
    }

    func cancel() -> Bool {
        let left = free.load()
        guard left < capacity else { return false }
        free.store(left + 1)
        return true
    }

    func available() -> Int { free.load() }
}

/// Two parties meet: the first to arrive waits, yielding, until the second has arrived.
/// Held between a reservation's check and its act, it makes two concurrent reservations
/// both read the seats before either takes one, on real threads and under every schedule.
final class Rendezvous: Sendable {
    private let arrived = SeamAtomic(0)

    func arrive() {
        arrived.add(1)
        while arrived.load() < 2 { Seam.yield() }
    }
}

enum BoxOffices {
    /// The generated scenarios of a box office of `capacity` seats: reservations,
    /// cancellations and counts, as `operations` lists them.
    static func test(
        capacity: Int,
        operations: [BoxOfficeModel.Operation] = [.reserve, .cancel, .available],
        _ make: @escaping @Sendable () -> BoxOffice
    ) -> LinearizabilityTest<BoxOffice, BoxOfficeModel> {
        var test = LinearizabilityTest(model: BoxOfficeModel(capacity: capacity), make)
        for operation in operations {
            test = test.operation(operation) { office in
                switch operation {
                case .reserve: office.reserve() ? .granted : .refused
                case .cancel: office.cancel() ? .granted : .refused
                case .available: .seats(office.available())
                }
            }
        }
        return test
    }

    /// Scenarios of two threads that each make one call, and nothing else.
    static let twoCalls = LinearizabilityOptions(
        seed: 7, threads: 2...2, operationsPerThread: 1...1, initialOperations: 0...0, finalOperations: 0...0)

    /// Two reservations of the last seat, the window between check and act held open until
    /// both have read it: every history overbooks.
    static func overbooking() -> LinearizabilityTest<BoxOffice, BoxOfficeModel> {
        test(capacity: 1, operations: [.reserve]) { BoxOffice(capacity: 1, betweenCheckAndAct: Rendezvous().arrive) }
    }
}
