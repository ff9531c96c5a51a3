import Harness
import Testing

@Suite("Linearizability: the search on a register")
struct LinearizabilitySearchTests {
    typealias Register = History<RegisterModel.Operation, RegisterModel.Result>

    @Test("a read overlapping a write may see it")
    func overlappingReadSeesWrite() throws {
        let history = Register([
            call(0, .write(1), .written, 0...3),
            call(1, .read, .value(1), 1...2),
            call(1, .read, .value(1), 4...5)
        ])
        let verdict = LinearizabilityChecker.check(history, model: RegisterModel())
        #expect(verdict.method == .search)
        let order = try #require(verdict.order)
        #expect(order == [0, 1, 2])
        #expect(history.isLinearization(order, model: RegisterModel()))
    }

    @Test("a read after a completed write cannot see the old value, and the explanation says why")
    func staleRead() throws {
        let history = Register([
            call(0, .write(1), .written, 0...1),
            call(1, .read, .value(0), 2...3)
        ])
        let verdict = LinearizabilityChecker.check(history, model: RegisterModel())
        guard case .noSequentialOrder(let deadEnd)? = verdict.violation else {
            Issue.record("expected a search dead end, got \(verdict)")
            return
        }
        #expect(
            deadEnd
                == SearchDeadEnd(
                    partition: nil, longestPrefix: [0], modelState: "register 1",
                    blocked: [BlockedCall(entry: 1, modelAnswer: .value(1))]))
    }

    @Test("a new value then an old one, read in real-time order, is no register")
    func newOldInversion() throws {
        let history = Register([
            call(0, .write(1), .written, 0...10),
            call(1, .read, .value(1), 1...2),
            call(2, .read, .value(0), 3...4)
        ])
        let verdict = LinearizabilityChecker.check(history, model: RegisterModel())
        guard case .noSequentialOrder(let deadEnd)? = verdict.violation else {
            Issue.record("expected a search dead end, got \(verdict)")
            return
        }
        #expect(deadEnd.longestPrefix == [0, 1])
        #expect(deadEnd.blocked == [BlockedCall(entry: 2, modelAnswer: .value(1))])
    }

    @Test("a search out of budget says undecided, never a guess")
    func budget() {
        let history = Register([
            call(0, .write(1), .written, 0...9),
            call(1, .write(2), .written, 0...9),
            call(2, .read, .value(1), 0...9)
        ])
        let verdict = LinearizabilityChecker(budget: 2).check(history, model: RegisterModel())
        #expect(verdict.outcome == .undecided(budget: 2))
        #expect(!verdict.isLinearizable)
        #expect(verdict.steps == 2)
        #expect(LinearizabilityChecker.check(history, model: RegisterModel()).isLinearizable)
    }

    @Test("an empty history is linearizable")
    func emptyHistory() {
        #expect(LinearizabilityChecker.check(Register(), model: RegisterModel()).outcome == .linearizable(order: []))
    }

    @Test("calls built with invoke and respond get positions in call order")
    func invokeAndRespond() {
        var history = Register()
        let write = history.invoke(.write(1), client: 0)
        let read = history.invoke(.read, client: 1)
        history.respond(read, with: .value(1))
        history.respond(write, with: .written)
        #expect(history.entries.map(\.invocation) == [0, 1])
        #expect(history.entries.map(\.response) == [3, 2])
        #expect(history.nextPosition == 4)
        #expect(LinearizabilityChecker.check(history, model: RegisterModel()).isLinearizable)
    }
}
