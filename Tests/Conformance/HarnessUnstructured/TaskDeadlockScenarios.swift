import Harness
import Primitives

/// Tasks that wait for each other for good, as people write them — two actors each waiting
/// for a message the other sends only once it has its own, a continuation nobody resumes, a
/// task awaiting a task that awaits it — and a token-refresh client whose coalescing is
/// right. The lines where tasks wait are kept (`…Line`), for tests to compare.
enum TaskDeadlockScenarios {
    /// Holds a continuation until someone delivers.
    actor Mailbox {
        private var waiting: CheckedContinuation<Void, Never>?
        private var delivered = false

        /// Waits until ``deliver()`` was called, returning at once if it was.
        func receive() async {
            if delivered { return }
            await withCheckedContinuation { continuation in waiting = continuation }
        }

        func deliver() {
            delivered = true
            waiting?.resume()
            waiting = nil
        }
    }

    /// Where ``Mailbox/receive()`` waits.
    static let receiveLine = 17

    /// Two peers that each wait to hear from the other before they answer.
    actor Peer {
        let inbox = Mailbox()
        private var other: Peer?

        func meet(_ other: Peer) { self.other = other }

        /// Waits for the other peer's message, then sends one.
        func handshake() async {
            await inbox.receive()
            await other?.inbox.deliver()
        }
    }

    static func peers() async -> (Peer, Peer) {
        let first = Peer()
        let second = Peer()
        await first.meet(second)
        await second.meet(first)
        return (first, second)
    }

    /// Two peers handshaking, each in a `Task {}` a scenario task starts.
    @Sendable static func peersInUnstructuredTasks(_ scenario: Scenario) {
        scenario.task {
            let (first, second) = await peers()
            Task { await first.handshake() }
            Task { await second.handshake() }
        }
        scenario.joinAll()
    }

    /// Where ``peersInUnstructuredTasks(_:)`` starts its two tasks.
    static let unstructuredPeersLines = [56, 57]

    /// Two peers handshaking, each in a scenario task, named.
    @Sendable static func peersInScenarioTasks(_ scenario: Scenario) {
        let peers = HarnessMutex<(Peer, Peer)?>(nil)
        scenario.task(name: "first") {
            let pair = await Self.peers()
            peers.withLock { $0 = pair }
            await pair.0.handshake()
        }
        scenario.task(name: "second") {
            while peers.withLock({ $0 }) == nil { await Task.yield() }
            await peers.withLock { $0 }?.1.handshake()
        }
        scenario.joinAll()
    }

    /// A scenario task waiting on a mailbox nobody delivers to.
    @Sendable static func neverResumedInScenarioTask(_ scenario: Scenario) {
        let mailbox = Mailbox()
        scenario.task(name: "waiter") { await mailbox.receive() }
        scenario.joinAll()
    }

    /// A `Task {}` the scenario's body starts and leaves waiting on a mailbox nobody
    /// delivers to: the body returns while it still waits.
    @Sendable static func neverResumedAtTheEnd(_ scenario: Scenario) {
        let mailbox = Mailbox()
        Task { await mailbox.receive() }
    }

    /// Where ``neverResumedAtTheEnd(_:)`` starts its task.
    static let leftWaitingLine = 91

    /// Holds a task for another to await, once it is stored.
    actor TaskSlot {
        private var stored: Task<Void, Never>?
        private var waiting: CheckedContinuation<Task<Void, Never>, Never>?

        func store(_ task: Task<Void, Never>) {
            stored = task
            waiting?.resume(returning: task)
            waiting = nil
        }

        /// Waits for a task to be stored, then for it to end.
        func awaitStored() async {
            let task = await withCheckedContinuation { continuation in
                if let stored { continuation.resume(returning: stored) } else { waiting = continuation }
            }
            await task.value
        }
    }

    /// Where ``TaskSlot/awaitStored()`` awaits the stored task.
    static let awaitStoredLine = 113

    /// A task awaiting a task that awaits it.
    @Sendable static func mutualAwait(_ scenario: Scenario) {
        scenario.task {
            let slot = TaskSlot()
            let first = Task { await slot.awaitStored() }
            await slot.store(Task { await first.value })
        }
        scenario.joinAll()
    }

    /// Where ``mutualAwait(_:)``'s second task awaits the first.
    static let awaitFirstLine = 125

    // MARK: A token-refresh client

    /// Refreshes a token at most once at a time: concurrent callers share the refresh in
    /// flight, a `Task {}` that sleeps (the server's latency) before it counts the refresh.
    actor TokenClient {
        private(set) var refreshCount = 0
        private var refreshing: Task<Void, any Error>?

        func refresh() async throws {
            if let refreshing { return try await refreshing.value }
            let task = Task {
                try await Task.sleep(for: .milliseconds(10))
                refreshCount += 1
            }
            refreshing = task
            defer { refreshing = nil }
            try await task.value
        }
    }

    /// Three callers refresh at once; the token was refreshed once.
    @Sendable static func concurrentRefreshes(_ scenario: Scenario) {
        let client = TokenClient()
        for _ in 0..<3 {
            scenario.task { try await client.refresh() }
        }
        scenario.joinAll()
        let count = HarnessAtomic<Int>(-1)
        scenario.task { count.store(await client.refreshCount, ordering: .releasing) }
        scenario.joinAll()
        let refreshed = count.load(ordering: .acquiring)
        Harness.check(refreshed == 1, "refreshed \(refreshed) times")
    }
}
