import Harness
import Primitives
import Testing

/// A store whose reads and writes are separate actor calls: a task that reads, then writes,
/// loses another's update in between (task-group lost update).
actor HitCounter {
    private(set) var hits = 0

    func set(_ value: Int) { hits = value }

    /// Counts a hit in one actor call (the fix).
    func increment() { hits += 1 }
}

/// A log that a fire-and-forget `Task {}` appends to.
actor EventLog {
    private(set) var events: [String] = []

    func append(_ event: String) { events.append(event) }
}

/// Whether a service is ready, and the tasks waiting until it is, in two actors: a waiter
/// that finds it not ready, then registers, misses a signal in between and waits for good (a
/// lost wakeup).
struct ReadySignal: Sendable {
    actor Flag {
        private(set) var isReady = false

        func markReady() { isReady = true }
    }

    actor Waiters {
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func add(_ waiter: CheckedContinuation<Void, Never>) { waiting.append(waiter) }

        func resumeAll() {
            for waiter in waiting { waiter.resume() }
            waiting.removeAll()
        }
    }

    let flag = Flag()
    let waiters = Waiters()

    func waitUntilReady() async {
        if await flag.isReady { return }
        await withCheckedContinuation { waiter in
            Task { await waiters.add(waiter) }
        }
    }

    func signalReady() async {
        await flag.markReady()
        await waiters.resumeAll()
    }
}

/// A count a screen shows, on the main actor.
@MainActor final class Screen {
    var shown = 0
}

/// Ordinary Swift Testing tests of bugs people write with tasks and actors, each with its fix,
/// with only `.explored` added. They fail on purpose, so a plain `swift test` skips them:
/// ``ExploredTraitTests`` runs them in a child process.
@Suite(.enabled(if: DemoGate.isOpen, "runs only in a child process of ExploredTraitTests"))
struct ExploredDemos {
    @Test(.explored(schedules: 500, seed: 1)) func overdraft() async {
        let account = BankAccount(balance: 100, rechecks: false)
        let audit = AuditLog()
        async let first = account.withdraw(80, audit: audit)
        async let second = account.withdraw(80, audit: audit)
        _ = await (first, second)
        #expect(await account.balance >= 0)
    }

    @Test(.explored(schedules: 500, seed: 1)) func overdraftFixed() async {
        let account = BankAccount(balance: 100, rechecks: true)
        let audit = AuditLog()
        async let first = account.withdraw(80, audit: audit)
        async let second = account.withdraw(80, audit: audit)
        _ = await (first, second)
        #expect(await account.balance >= 0)
    }

    @Test(.explored(schedules: 500, seed: 1)) func lostUpdate() async {
        let counter = HitCounter()
        await withTaskGroup { group in
            for _ in 0..<2 {
                group.addTask { await counter.set(await counter.hits + 1) }
            }
        }
        #expect(await counter.hits == 2)
    }

    @Test(.explored(schedules: 500, seed: 1)) func lostUpdateFixed() async {
        let counter = HitCounter()
        await withTaskGroup { group in
            for _ in 0..<2 {
                group.addTask { await counter.increment() }
            }
        }
        #expect(await counter.hits == 2)
    }

    @Test(.explored(schedules: 300, seed: 1)) func lostWakeup() async {
        let signal = ReadySignal()
        async let waiting: Void = signal.waitUntilReady()
        await signal.signalReady()
        await waiting
    }

    @Test(.explored(schedules: 500, seed: 1)) func fireAndForget() async {
        let log = EventLog()
        Task { await log.append("saved") }
        await log.append("shown")
        #expect(await log.events == ["saved", "shown"])
    }

    @Test(.explored(schedules: 500, seed: 1)) func fireAndForgetFixed() async {
        let log = EventLog()
        await Task { await log.append("saved") }.value
        await log.append("shown")
        #expect(await log.events == ["saved", "shown"])
    }

    /// A reply after 5 ms and some work, racing a 10 ms timeout: found at default options.
    @Test(.explored) func replyRacesTimeout() async {
        let reply = await fetchReply(from: ReplyServer(), latency: .milliseconds(5), timeout: .milliseconds(10))
        #expect(reply == "reply")
    }

    /// The same reply with a timeout far beyond its latency: the reply always wins.
    @Test(.explored(schedules: 500, seed: 1)) func replyRacesTimeoutFixed() async {
        let reply = await fetchReply(from: ReplyServer(), latency: .milliseconds(5), timeout: .seconds(1))
        #expect(reply == "reply")
    }

    /// Two detached deliveries each update a `MainActor` count in two hops, reading it in one
    /// and writing what they read plus one in the next: one update can be lost in between.
    @Test(.explored(schedules: 500, seed: 1)) func mainActorTwoHops() async {
        let screen = Screen()
        let deliveries = (0..<2).map { _ in
            Task.detached {
                let shown = await screen.shown
                await MainActor.run { screen.shown = shown + 1 }
            }
        }
        for delivery in deliveries { await delivery.value }
        #expect(await screen.shown == 2)
    }

    /// The fix: each delivery updates the count in one hop.
    @Test(.explored(schedules: 500, seed: 1)) func mainActorTwoHopsFixed() async {
        let screen = Screen()
        let deliveries = (0..<2).map { _ in
            Task.detached { await MainActor.run { screen.shown += 1 } }
        }
        for delivery in deliveries { await delivery.value }
        #expect(await screen.shown == 2)
    }

    /// An ordinary test, without the trait, beside those with it.
    @Test func ordinaryBeside() async {
        let log = EventLog()
        await log.append("alone")
        #expect(await log.events == ["alone"])
    }

    /// A test that is not `async`: its body runs as the root task all the same.
    @Test(.explored(schedules: 50, seed: 1)) func synchronousBody() {
        let value = SeamAtomic(0)
        value.store(value.load() + 1)
        #expect(value.load() == 1)
    }
}

/// The README's search box, the one its scenario form tests too.
typealias SearchModel = ReadmeAsyncExampleTests.SearchModel

/// The README's async example, with only the trait added.
@Suite(.enabled(if: DemoGate.isOpen, "runs only in a child process of ExploredTraitTests"))
struct ExploredReadmeDemos {
    @Test(.explored(schedules: 500, seed: 1)) func searchShowsTheLatestQuery() async {
        let model = SearchModel()
        await model.type("swi", serverLatency: .milliseconds(300))
        await model.type("swift", serverLatency: .milliseconds(300))
        await Harness.waitUntilQuiet()
        #expect(await model.shown == "results for swift")
    }

    @Test(.explored(schedules: 500, seed: 1)) func searchShowsTheLatestQueryFixed() async {
        let model = SearchModel(dropsStaleAnswers: true)
        await model.type("swi", serverLatency: .milliseconds(300))
        await model.type("swift", serverLatency: .milliseconds(300))
        await Harness.waitUntilQuiet()
        #expect(await model.shown == "results for swift")
    }

    /// A `MainActor` test: its body runs on the harness's main lane.
    @MainActor @Test(.explored(schedules: 100, seed: 1)) func mainActorBody() async {
        let model = SearchModel(dropsStaleAnswers: true)
        await model.type("swift", serverLatency: .seconds(1))
        await Harness.waitUntilQuiet()
        #expect(await model.shown == "results for swift")
    }
}

/// The trait on a suite: each of its tests is explored on its own.
@Suite(
    .explored(schedules: 20, seed: 1),
    .enabled(if: DemoGate.isOpen, "runs only in a child process of ExploredTraitTests")
)
struct ExploredSuiteDemos {
    @Test func first() async {
        let counter = HitCounter()
        await counter.increment()
        #expect(await counter.hits == 1)
    }

    @Test func second() {
        #expect(SeamAtomic(2).load() == 2)
    }

    /// A test with a trait of its own: that one applies, not the suite's.
    @Test(.explored(schedules: 7, seed: 1)) func third() {
        #expect(SeamAtomic(3).load() == 3)
    }
}
