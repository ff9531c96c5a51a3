import Harness
import Primitives

/// A concurrency limiter as a sequential model. A `run` is recorded as three entries: it
/// arrives (joins the queue of tasks not yet admitted) and is admitted, both between the
/// call and the start of its body, and it leaves, between the end of its body and the
/// call's return. A task is admitted only at the front of the queue and with a slot free,
/// so the model admits first in, first out, never more than the limit at once.
public struct LimiterModel: SequentialModel, Sendable, CustomStringConvertible {
    /// The limiter's operations, as the history records them.
    public enum Operation: Hashable, Sendable, CustomStringConvertible {
        /// Client `client`'s run joined the queue.
        case arrive(client: Int)
        /// Client `client`'s run took a slot.
        case admit(client: Int)
        /// A run gave its slot back.
        case leave
        /// Read the number of waiting tasks.
        case waiting
        /// Read the number of bodies holding a slot.
        case inFlight

        public var description: String {
            switch self {
            case .arrive: "arrive"
            case .admit: "admit"
            case .leave: "leave"
            case .waiting: "waitingCount"
            case .inFlight: "inFlightCount"
            }
        }
    }

    /// What they return.
    public enum Result: Hashable, Sendable, CustomStringConvertible {
        case arrived
        case admitted
        case left
        case count(Int)
        /// The model's answer to an admission out of turn or beyond the limit: never
        /// recorded, so no admission is placed there.
        case refused

        public var description: String {
            switch self {
            case .arrived: "queued"
            case .admitted: "admitted"
            case .left: "left"
            case .count(let count): "\(count)"
            case .refused: "refused"
            }
        }
    }

    /// The most bodies at once.
    public let limit: Int
    /// Bodies holding a slot.
    public var inFlight = 0
    /// Clients arrived and not admitted, first first.
    public var queue: [Int] = []

    /// A limiter of `limit` slots, all free.
    public init(limit: Int) {
        self.limit = limit
    }

    public mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .arrive(let client):
            queue.append(client)
            return .arrived
        case .admit(let client):
            guard queue.first == client, inFlight < limit else { return .refused }
            queue.removeFirst()
            inFlight += 1
            return .admitted
        case .leave:
            guard inFlight > 0 else { return .refused }
            inFlight -= 1
            return .left
        case .waiting:
            return .count(queue.count)
        case .inFlight:
            return .count(inFlight)
        }
    }

    public var description: String { "\(inFlight) of \(limit) slots taken, queue \(queue)" }
}

/// The generated scenarios of a concurrency limiter: runs whose bodies yield 0 to 2 times,
/// and reads of the waiting and in-flight counts, from tasks.
public enum LimiterOperations {
    /// Which entry of a run is still to respond.
    private final class LeaveEntry: @unchecked Sendable {
        /// Touched only by the run's own task.
        var entry: Int?
    }

    /// The operations on a fresh limiter of `limit` slots from `make`.
    public static func test(limit: Int, _ make: @escaping @Sendable () -> any AsyncLimiting) -> LinearizabilityTest<
        any AsyncLimiting, LimiterModel
    > {
        LinearizabilityTest(model: LimiterModel(limit: limit), make)
            .operation("run", .int(in: 0...2)) { limiter, yields, recorder in
                let arrive = recorder.invoke(.arrive(client: recorder.client))
                let admit = recorder.invoke(.admit(client: recorder.client))
                let leave = LeaveEntry()
                do {
                    try await limiter.run {
                        recorder.respond(arrive, with: .arrived)
                        recorder.respond(admit, with: .admitted)
                        for _ in 0..<yields { await Task.yield() }
                        leave.entry = recorder.invoke(.leave)
                    }
                } catch {
                    Harness.check(false, "run threw \(error)")
                }
                if let entry = leave.entry { recorder.respond(entry, with: .left) }
            }
            .operation(.waiting) { limiter in .count(limiter.waitingCount) }
            .operation(.inFlight) { limiter in .count(limiter.inFlightCount) }
            .clients(.tasks)
    }
}
