import Harness
import Synchronization
import Testing

/// A model that keeps its count outside its value: equal copies answer differently.
struct LeakyCounterModel: SequentialModel {
    final class Storage {
        var count = 0
    }

    enum Operation: Hashable, CustomStringConvertible {
        case increment
        var description: String { "increment()" }
    }

    let storage = Storage()
    /// Whether the leak shows in the answers (else only in the state).
    var leaksIntoAnswers = true
    var state = 0

    mutating func apply(_ operation: Operation) -> Int {
        storage.count += 1
        if leaksIntoAnswers { return storage.count }
        state = storage.count
        return 0
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.state == rhs.state }
    func hash(into hasher: inout Hasher) { hasher.combine(state) }
}

enum BoundedQueueError: Error, Hashable {
    case full
    case empty
}

/// A queue holding at most one value, whose calls throw when full or empty.
struct BoundedQueueModel: SequentialModel {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
        case enqueue(Int)
        case dequeue
        var description: String {
            switch self {
            case .enqueue(let value): "enqueue(\(value))"
            case .dequeue: "dequeue()"
            }
        }
    }

    var value: Int?

    mutating func apply(_ operation: Operation) -> Swift.Result<Int?, BoundedQueueError> {
        switch operation {
        case .enqueue(let new):
            guard value == nil else { return .failure(.full) }
            value = new
            return .success(nil)
        case .dequeue:
            guard let old = value else { return .failure(.empty) }
            value = nil
            return .success(old)
        }
    }
}

@Suite("Linearizability: models")
struct LinearizabilityModelTests {
    @Test("a model that answers one call two ways is reported by call, not trusted")
    func nondeterministicAnswers() throws {
        let history = History<LeakyCounterModel.Operation, Int>([call(0, .increment, 1, 0...1)])
        let verdict = LinearizabilityChecker.check(history, model: LeakyCounterModel())
        guard case .modelNotDeterministic(let report) = verdict.outcome else {
            Issue.record("expected nondeterminism, got \(verdict)")
            return
        }
        #expect(report.entry == 0)
        #expect(report.firstAnswer == 1)
        #expect(report.secondAnswer == 2)
        #expect(!report.statesDiffer)
        #expect(!verdict.isLinearizable)
    }

    @Test("a model that leaves equal copies in different states is reported too")
    func nondeterministicStates() {
        var model = LeakyCounterModel()
        model.leaksIntoAnswers = false
        let history = History<LeakyCounterModel.Operation, Int>([call(0, .increment, 0, 0...1)])
        guard case .modelNotDeterministic(let report) = LinearizabilityChecker.check(history, model: model).outcome
        else {
            Issue.record("expected nondeterminism")
            return
        }
        #expect(report.firstAnswer == 0 && report.secondAnswer == 0 && report.statesDiffer)
    }

    @Test("a call that throws has its error as its result")
    func throwingCalls() throws {
        let recorder = HistoryRecorder<BoundedQueueModel.Operation, Swift.Result<Int?, BoundedQueueError>>()
        let queue = Mutex<Int?>(nil)
        func enqueue(_ value: Int) throws(BoundedQueueError) {
            try queue.withLock { (stored: inout Int?) throws(BoundedQueueError) in
                guard stored == nil else { throw .full }
                stored = value
            }
        }
        func dequeue() throws(BoundedQueueError) -> Int {
            try queue.withLock { (stored: inout Int?) throws(BoundedQueueError) -> Int in
                guard let value = stored else { throw .empty }
                stored = nil
                return value
            }
        }
        try recorder.record(.enqueue(1), client: 0) { () throws(BoundedQueueError) -> Int? in
            try enqueue(1); return nil
        }
        #expect(throws: BoundedQueueError.full) {
            try recorder.record(.enqueue(2), client: 1) { () throws(BoundedQueueError) -> Int? in
                try enqueue(2); return nil
            }
        }
        #expect(try recorder.record(.dequeue, client: 0) { () throws(BoundedQueueError) -> Int? in try dequeue() } == 1)
        #expect(throws: BoundedQueueError.empty) {
            try recorder.record(.dequeue, client: 1) { () throws(BoundedQueueError) -> Int? in try dequeue() }
        }
        let history = recorder.history
        #expect(history.entries.map(\.result) == [.success(nil), .failure(.full), .success(1), .failure(.empty)])
        #expect(LinearizabilityChecker.check(history, model: BoundedQueueModel()).order == [0, 1, 2, 3])

        // "Full" after the only value was taken out is no queue of one.
        let wrong = History<BoundedQueueModel.Operation, Swift.Result<Int?, BoundedQueueError>>([
            call(0, .enqueue(1), .success(nil), 0...1),
            call(1, .dequeue, .success(1), 2...3),
            call(0, .enqueue(2), .failure(.full), 4...5)
        ])
        let verdict = LinearizabilityChecker.check(wrong, model: BoundedQueueModel())
        #expect(
            verdict.violation
                == .noSequentialOrder(
                    SearchDeadEnd(
                        partition: nil, longestPrefix: [0, 1], modelState: "BoundedQueueModel(value: nil)",
                        blocked: [BlockedCall(entry: 2, modelAnswer: .success(nil))]
                    )))
    }
}
