import Harness
import Primitives
import Testing

actor BankAccount {
    var balance = 100
    func withdraw(_ amount: Int) async -> Bool {
        guard balance >= amount else { return false }
        await Task.yield()
        balance -= amount
        return true
    }
}

@Suite struct ZZScratch {
    @Test func overdraft() throws {
        let report = try Harness.run("overdraft", options: ExplorationOptions(schedules: 500, seed: 3)) { scenario in
            let account = BankAccount()
            let seen = SeamAtomic(0)
            for _ in 0..<2 {
                scenario.task { _ = await account.withdraw(80) }
            }
            scenario.joinAll()
            scenario.task { seen.store(await account.balance) }
            scenario.joinAll()
            Harness.check(seen.load() >= 0, "overdrawn: \(seen.load())")
        }
        if let f = report.failure { print(f.message) } else { print("no failure", report.schedulesRun) }
    }
}
