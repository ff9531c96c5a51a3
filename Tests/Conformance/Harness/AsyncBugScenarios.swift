import Harness
import Primitives

/// An account whose `withdraw` checks the balance, then suspends before it debits: two
/// withdrawals that each fit the balance can both pass the check (actor reentrancy).
actor BankAccount {
    private(set) var balance: Int
    /// Whether `withdraw` re-checks the balance after its suspension (the fix).
    let rechecks: Bool

    init(balance: Int, rechecks: Bool) {
        self.balance = balance
        self.rechecks = rechecks
    }

    /// Takes `amount` if the balance covers it; returns whether it did.
    func withdraw(_ amount: Int, audit: AuditLog) async -> Bool {
        guard balance >= amount else { return false }
        await audit.record(amount)
        if rechecks, balance < amount { return false }
        balance -= amount
        return true
    }
}

/// Another actor the account awaits between its check and its debit.
actor AuditLog {
    private var entries: [Int] = []

    func record(_ amount: Int) {
        entries.append(amount)
    }
}

/// Scenarios of bugs people write with tasks and actors, each with its fix.
enum AsyncBugScenarios {
    /// Two tasks withdraw 80 from 100 at once.
    static func overdraft(rechecks: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let account = BankAccount(balance: 100, rechecks: rechecks)
            let audit = AuditLog()
            for _ in 0..<2 {
                scenario.task { _ = await account.withdraw(80, audit: audit) }
            }
            scenario.joinAll()
            let balance = SeamAtomic(0)
            scenario.task { balance.store(await account.balance) }
            scenario.joinAll()
            Harness.check(balance.load() >= 0, "the account is overdrawn: its balance is \(balance.load())")
        }
    }

    /// A request whose reply and timeout race to resume one continuation: the timeout
    /// checks a flag, then resumes, so a reply between the two resumes it a second time
    /// (a crash: run it isolated). The fix claims the continuation with one atomic
    /// compare-and-exchange.
    static func replyRacingTimeout(claimsAtomically: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            scenario.task {
                let answered = SeamAtomic(false)
                let answer: String = await withCheckedContinuation { continuation in
                    @Sendable func resume(_ value: String) {
                        if claimsAtomically {
                            guard answered.compareExchange(expected: false, desired: true).exchanged else { return }
                        } else {
                            guard !answered.load() else { return }
                            answered.store(true)
                        }
                        continuation.resume(returning: value)
                    }
                    scenario.task {
                        try await Task.sleep(for: .milliseconds(100), clock: SeamClock())
                        resume("reply")
                    }
                    scenario.task {
                        try await Task.sleep(for: .milliseconds(100), clock: SeamClock())
                        resume("timed out")
                    }
                }
                _ = answer
            }
            scenario.joinAll()
        }
    }
}

extension AsyncBugScenarios {
    /// A server that works (without sleeping) before it replies, and a timeout of 10 ms:
    /// the timeout fires first only when the clock may move while the server still works.
    /// The reply path then finds the request already answered, and reports it as lost.
    @Sendable static func slowServerRacingTimeout(_ scenario: Scenario) {
        let answered = SeamAtomic(false)
        let replyLost = SeamAtomic(false)
        scenario.spawn {
            for _ in 0..<3 { Seam.yield() }
            if !answered.compareExchange(expected: false, desired: true).exchanged { replyLost.store(true) }
        }
        scenario.spawn {
            Seam.sleep(for: .milliseconds(10))
            _ = answered.compareExchange(expected: false, desired: true)
        }
        scenario.joinAll()
        Harness.check(!replyLost.load(), "the reply lost its race with the timeout")
    }
}

/// A server actor that does some work for each request.
actor ReplyServer {
    private var handled = 0

    /// Handles one request: a step of the server's work.
    func handle() -> Int {
        handled += 1
        return handled
    }
}

/// Asks `server` for a reply that comes after `latency` and a step of the server's work,
/// or gives up after `timeout`, whichever comes first; written as users write it, with
/// `Task.sleep` on the system clock. The loser is not cancelled: it ends on its own.
func fetchReply(from server: ReplyServer, latency: Duration, timeout: Duration) async -> String {
    await withTaskGroup(of: String.self) { group in
        group.addTask {
            try? await Task.sleep(for: latency)
            _ = await server.handle()
            return "reply"
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return "timed out"
        }
        return await group.next() ?? "nothing"
    }
}

extension AsyncBugScenarios {
    /// A reply after 5 ms of latency and some work, racing a 10 ms timeout: the test expects
    /// the reply, but the timeout wins when the work takes longer than 5 ms.
    @Sendable static func replyAfterWorkRacingTimeout(_ scenario: Scenario) {
        let answer = HarnessMutex("")
        scenario.task {
            let reply = await fetchReply(from: ReplyServer(), latency: .milliseconds(5), timeout: .milliseconds(10))
            answer.withLock { $0 = reply }
        }
        scenario.joinAll()
        Harness.check(answer.withLock { $0 } == "reply", "the request got '\(answer.withLock { $0 })'")
    }
}

/// A cache that fetches a token when it has none, the fetch awaiting the server's latency
/// in a call of its own: two callers that come together both fetch (actor reentrancy
/// across a call), unless a caller that finds a fetch under way waits for it (the fix).
actor TokenCache {
    private var token: String?
    private(set) var fetches = 0
    let sharesFetch: Bool
    /// The callers waiting for the fetch under way; `nil` when none is.
    private var waiting: [CheckedContinuation<String, Never>]?

    init(sharesFetch: Bool) {
        self.sharesFetch = sharesFetch
    }

    func accessToken() async -> String {
        if let token { return token }
        if sharesFetch { return await sharedFetch() }
        let fresh = await fetch()
        token = fresh
        return fresh
    }

    private func fetch() async -> String {
        fetches += 1
        try? await Task.sleep(for: .milliseconds(120))
        return "token \(fetches)"
    }

    private func sharedFetch() async -> String {
        if waiting != nil {
            return await withCheckedContinuation { waiting?.append($0) }
        }
        waiting = []
        let fresh = await fetch()
        token = fresh
        for caller in waiting ?? [] { caller.resume(returning: fresh) }
        waiting = nil
        return fresh
    }
}

extension AsyncBugScenarios {
    /// Two tasks ask the cache for a token at once; it must fetch one.
    static func doubleFetch(sharesFetch: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in doubleFetch(scenario, cache: TokenCache(sharesFetch: sharesFetch)) }
    }

    private static func doubleFetch(_ scenario: Scenario, cache: TokenCache) {
        for _ in 0..<2 {
            scenario.task { _ = await cache.accessToken() }
        }
        scenario.joinAll()
        let fetches = SeamAtomic(0)
        scenario.task { fetches.store(await cache.fetches) }
        scenario.joinAll()
        Harness.check(fetches.load() == 1, "the token was fetched \(fetches.load()) times")
    }
}
