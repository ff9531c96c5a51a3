import Harness
import Primitives

/// Async code as people write it — unstructured `Task {}`, `Task.detached`, `Task.sleep` on
/// the default clock, `MainActor` — with nothing of the harness in it but the `Atomic`
/// drop-in; each bug with its fix.
enum UnstructuredAsyncScenarios {
    // MARK: A fire-and-forget task

    actor AuditLog {
        private(set) var entries: [String] = []

        func record(_ entry: String) {
            entries.append(entry)
        }
    }

    /// Completes an order and audits it: in a fire-and-forget `Task {}` (the bug: the caller
    /// may read the log before the entry lands), or awaited (the fix).
    struct Checkout {
        /// The line of the fire-and-forget `Task {}`.
        static let auditTaskLine = #line + 8
        let log: AuditLog
        let awaitsAudit: Bool

        func complete(_ order: String) async {
            if awaitsAudit {
                await log.record(order)
            } else {
                Task { await log.record(order) }
            }
        }
    }

    /// A checkout, then a look at the audit log.
    static func fireAndForgetAudit(awaitsAudit: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let log = AuditLog()
            let entries = HarnessAtomic<Int>(-1)
            scenario.task {
                await Checkout(log: log, awaitsAudit: awaitsAudit).complete("order 1")
                entries.store(await log.entries.count, ordering: .releasing)
            }
            scenario.joinAll()
            let seen = entries.load(ordering: .acquiring)
            Harness.check(seen == 1, "right after checkout the audit log had \(seen) entries")
        }
    }

    // MARK: A reply racing a timeout

    /// A request answered by whichever comes first, the reply or the timeout; each races to
    /// resume the one continuation. The bug checks a flag, then sets it: both can pass the
    /// check, and the continuation is resumed twice (a crash). The fix claims it with one
    /// compare-and-exchange.
    final class PendingRequest: Sendable {
        private let answered = HarnessAtomic<Bool>(false)
        private let claimsAtomically: Bool

        init(claimsAtomically: Bool) {
            self.claimsAtomically = claimsAtomically
        }

        func resolve(_ continuation: CheckedContinuation<String, Never>, with answer: String) {
            if claimsAtomically {
                guard
                    answered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
                else { return }
            } else {
                guard !answered.load(ordering: .acquiring) else { return }
                answered.store(true, ordering: .releasing)
            }
            continuation.resume(returning: answer)
        }
    }

    /// Sends a request to a server that answers after `latency`, giving up after `timeout`;
    /// both wait with `Task.sleep(for:)` on the default clock.
    static func request(latency: Duration, timeout: Duration, claimsAtomically: Bool) async -> String {
        await withCheckedContinuation { continuation in
            let pending = PendingRequest(claimsAtomically: claimsAtomically)
            Task {
                try? await Task.sleep(for: latency)
                pending.resolve(continuation, with: "reply")
            }
            Task {
                try? await Task.sleep(for: timeout)
                pending.resolve(continuation, with: "timed out")
            }
        }
    }

    /// A request whose server takes as long as its timeout.
    static func replyRacingTimeout(claimsAtomically: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            scenario.task {
                _ = await request(
                    latency: .milliseconds(100), timeout: .milliseconds(100), claimsAtomically: claimsAtomically)
            }
            scenario.joinAll()
        }
    }

    // MARK: A sleep held up on its way

    /// A `Task {}` sleeps 100 ms with `Task.sleep(for:)` while another's job keeps a lane
    /// busy for 30 ms of real time. The sleeper changes executor inside the runtime's sleep,
    /// after reading the clock: when the busy job runs in between, the sleep arrives with 70
    /// ms left by the real clock, and must still sleep 100 ms of virtual time.
    static func sleepBesideBusyTask() -> @Sendable (Scenario) -> Void {
        { scenario in
            scenario.task {
                let sleeper = Task {
                    let start = Seam.now()
                    try? await Task.sleep(for: .milliseconds(100))
                    return start.duration(to: Seam.now())
                }
                let busy = Task {
                    let until = ContinuousClock.now + .milliseconds(30)
                    while ContinuousClock.now < until {}
                }
                let slept = await sleeper.value
                await busy.value
                Harness.check(slept == .milliseconds(100), "the sleeper slept \(slept) of virtual time")
            }
            scenario.joinAll()
        }
    }

    // MARK: MainActor state and a background task

    /// A screen's model on the main actor, counting the items background work delivered.
    @MainActor final class ScreenModel {
        var delivered = 0
    }

    /// Background work that delivers one item to `model`: it reads the count in one hop to
    /// the main actor and writes it in another (the bug: another delivery between the hops
    /// is lost), or adds in one hop (the fix).
    static func deliver(to model: ScreenModel, inOneHop: Bool) async {
        if inOneHop {
            await MainActor.run { model.delivered += 1 }
        } else {
            let seen = await MainActor.run { model.delivered }
            await MainActor.run { model.delivered = seen + 1 }
        }
    }

    /// Two detached background deliveries, then a look at the model on the main actor.
    static func mainActorDeliveries(inOneHop: Bool) -> @Sendable (Scenario) -> Void {
        { scenario in
            let count = HarnessAtomic<Int>(-1)
            scenario.task {
                let model = ScreenModel()
                let first = Task.detached { await deliver(to: model, inOneHop: inOneHop) }
                let second = Task.detached { await deliver(to: model, inOneHop: inOneHop) }
                await first.value
                await second.value
                count.store(await model.delivered, ordering: .releasing)
            }
            scenario.joinAll()
            let delivered = count.load(ordering: .acquiring)
            Harness.check(delivered == 2, "two deliveries left the screen showing \(delivered)")
        }
    }
}
