import Harness
import Primitives
import Synchronization

/// An account as a sequential model: deposits add, a balance read returns the sum.
struct AccountModel: SequentialModel, Sendable {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
        case deposit(Int)
        case balance

        var description: String {
            switch self {
            case .deposit(let amount): "deposit(\(amount))"
            case .balance: "balance()"
            }
        }
    }

    enum Result: Hashable, Sendable, CustomStringConvertible {
        case deposited
        case balance(Int)

        var description: String {
            switch self {
            case .deposited: "deposited"
            case .balance(let balance): "\(balance)"
            }
        }
    }

    var balance = 0

    mutating func apply(_ operation: Operation) -> Result {
        switch operation {
        case .deposit(let amount):
            balance += amount
            return .deposited
        case .balance:
            return .balance(balance)
        }
    }
}

/// An actor account; with `reentrant`, a deposit reads the balance, suspends, and writes
/// it back, so two deposits interleaved at the suspension lose one.
actor Account {
    private let reentrant: Bool
    private var balance = 0

    init(reentrant: Bool) {
        self.reentrant = reentrant
    }

    func deposit(_ amount: Int) async {
        guard reentrant else {
            balance += amount
            return
        }
        let read = balance
        await Task.yield()
        balance = read + amount
    }

    func currentBalance() -> Int { balance }
}

/// The generated scenarios of an account: deposits of 1 to 3 and balance reads.
func accountTest(reentrant: Bool) -> LinearizabilityTest<Account, AccountModel> {
    LinearizabilityTest(model: AccountModel()) { Account(reentrant: reentrant) }
        .operation(AccountModel.Operation.deposit, .int(in: 1...3)) { account, amount in
            await account.deposit(amount)
            return .deposited
        }
        .operation(.balance) { account in .balance(await account.currentBalance()) }
}

/// Why a ``BoundedStack`` refused a call.
enum StackError: Error, Hashable, Sendable, CustomStringConvertible {
    case full
    case empty

    var description: String {
        switch self {
        case .full: "full"
        case .empty: "empty"
        }
    }
}

/// An error no stack model has a place for.
struct UnexpectedError: Error, CustomStringConvertible {
    var description: String { "unexpected" }
}

/// A stack of at most two values whose calls throw when full or empty.
final class BoundedStack: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var values: [Int] = []
    /// Whether a push of 3 throws an error the model has no place for.
    let throwsUnexpected: Bool

    init(throwsUnexpected: Bool = false) {
        self.throwsUnexpected = throwsUnexpected
    }

    func push(_ value: Int) throws -> Int {
        if throwsUnexpected, value == 3 { throw UnexpectedError() }
        return try mutex.withLock { () throws(StackError) -> Int in
            guard values.count < 2 else { throw .full }
            values.append(value)
            return values.count
        }
    }

    func pop() throws(StackError) -> Int {
        try mutex.withLock { () throws(StackError) -> Int in
            guard let value = values.popLast() else { throw .empty }
            return value
        }
    }
}

/// A stack of at most two values as a sequential model whose results are `Swift.Result`s.
struct BoundedStackModel: SequentialModel, Sendable {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
        case push(Int)
        case pop

        var description: String {
            switch self {
            case .push(let value): "push(\(value))"
            case .pop: "pop()"
            }
        }
    }

    var values: [Int] = []

    mutating func apply(_ operation: Operation) -> Swift.Result<Int, StackError> {
        switch operation {
        case .push(let value):
            guard values.count < 2 else { return .failure(.full) }
            values.append(value)
            return .success(values.count)
        case .pop:
            guard let value = values.popLast() else { return .failure(.empty) }
            return .success(value)
        }
    }
}

/// The generated scenarios of a bounded stack, through the throwing form of `operation`.
func boundedStackTest(throwsUnexpected: Bool = false) -> LinearizabilityTest<BoundedStack, BoundedStackModel> {
    LinearizabilityTest(model: BoundedStackModel()) { BoundedStack(throwsUnexpected: throwsUnexpected) }
        .operation(BoundedStackModel.Operation.push, .int(in: 1...3)) { stack, value in try stack.push(value) }
        .operation(.pop) { stack in try stack.pop() }
}

/// Counts every application of ``ForgetfulModel`` in the process.
let forgetfulApplications = Atomic<Int>(0)

/// A model that answers from a count outside its value: not deterministic.
struct ForgetfulModel: SequentialModel, Sendable {
    enum Operation: Hashable, Sendable, CustomStringConvertible {
        case tick
        var description: String { "tick()" }
    }

    mutating func apply(_ operation: Operation) -> Int {
        forgetfulApplications.add(1, ordering: .relaxed).newValue
    }
}

/// A subject whose calls need nothing.
struct Nothing: Sendable {}
