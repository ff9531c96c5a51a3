import Primitives

/// `ConcurrencyLimiter` and `AsyncCondition`/`AsyncSignal` against the seed's actor-and-
/// stream design and a bare `CheckedContinuation`.
enum AsyncWorkloads {
    /// Tasks and slots of the contended comparison: more tasks than slots, each body
    /// suspending once, so most admissions wait.
    static let contendingTasks = 8
    static let contendedSlots = 2

    static let comparisons = [
        Comparison(
            // Written out rather than through `BenchmarkLimiter`: the extra async frame of a
            // protocol method (about 30 ns here) would be a large part of what is measured.
            Workload("ConcurrencyLimiter.run, uncontended") { (operations: Int) async -> Duration in
                let limiter = ConcurrencyLimiter(concurrency: 4)
                var counter = 0
                let elapsed = await timed {
                    for _ in 0..<operations { await uncancelled { try await limiter.run { counter &+= 1 } } }
                }
                consume(counter)
                return elapsed
            },
            against: Workload("actor + AsyncStream limiter (seed design), uncontended") {
                (operations: Int) async -> Duration in
                let limiter = ActorStreamLimiter(concurrency: 4)
                var counter = 0
                let elapsed = await timed {
                    for _ in 0..<operations { await limiter.run { counter &+= 1 } }
                }
                consume(counter)
                return elapsed
            },
            target: .fasterBy(10)
        ),
        Comparison(
            Workload("ConcurrencyLimiter.run, \(contendingTasks) tasks, \(contendedSlots) slots") {
                await timedContendedRuns(through: ConcurrencyLimiter(concurrency: contendedSlots), operations: $0)
            },
            against: Workload("actor + AsyncStream limiter, \(contendingTasks) tasks, \(contendedSlots) slots") {
                await timedContendedRuns(through: ActorStreamLimiter(concurrency: contendedSlots), operations: $0)
            },
            target: .none
        ),
        Comparison(
            Workload("AsyncSignal.signal, then AsyncCondition.wait") { (operations: Int) async -> Duration in
                await timed {
                    for _ in 0..<operations {
                        let (condition, signal) = AsyncCondition.makeCondition()
                        signal.signal()
                        await uncancelled { try await condition.wait() }
                    }
                }
            },
            against: Workload("CheckedContinuation event, signal then wait") { (operations: Int) async -> Duration in
                await timed {
                    for _ in 0..<operations {
                        let event = ContinuationEvent()
                        event.signal()
                        await event.wait()
                    }
                }
            },
            target: .none
        ),
        Comparison(
            Workload("AsyncCondition ping-pong between two tasks (one way)") { (operations: Int) async -> Duration in
                await pingPong(handoffs: operations) { () -> ConditionEvent in
                    let (condition, signal) = AsyncCondition.makeCondition()
                    return ConditionEvent(condition: condition, sender: signal)
                }
            },
            against: Workload("CheckedContinuation ping-pong between two tasks (one way)") {
                (operations: Int) async -> Duration in
                await pingPong(handoffs: operations) { ContinuationEvent() }
            },
            target: .none
        )
    ]

    /// Times `operations` runs of a body that suspends once, spread over
    /// ``contendingTasks`` child tasks.
    private static func timedContendedRuns(through limiter: some BenchmarkLimiter & Sendable, operations: Int) async
        -> Duration
    {
        await timed {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<contendingTasks {
                    let share = operations / contendingTasks + (task < operations % contendingTasks ? 1 : 0)
                    group.addTask {
                        for _ in 0..<share { await limiter.limit { await Task.yield() } }
                    }
                }
            }
        }
    }

    /// Two tasks take turns `handoffs` times, each turn passed with a fresh event (made
    /// before the clock starts).
    private static func pingPong<Event: OneShotEvent>(handoffs: Int, make: () -> Event) async -> Duration {
        let toPartner = (0..<(handoffs + 1) / 2).map { _ in make() }
        let toMe = (0..<(handoffs + 1) / 2).map { _ in make() }
        return await timed {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for (mine, theirs) in zip(toPartner, toMe) {
                        await mine.wait()
                        theirs.signal()
                    }
                }
                for (theirs, mine) in zip(toPartner, toMe) {
                    theirs.signal()
                    await mine.wait()
                }
            }
        }
    }
}

/// Runs bodies with at most a fixed number at once: `ConcurrencyLimiter` or its baseline.
protocol BenchmarkLimiter {
    func limit(_ body: () async -> Void) async
}

extension ConcurrencyLimiter: BenchmarkLimiter {
    func limit(_ body: () async -> Void) async {
        await uncancelled { try await run(body) }
    }
}

extension ActorStreamLimiter: BenchmarkLimiter {
    func limit(_ body: () async -> Void) async {
        await run(body)
    }
}

/// An event that is signalled once and waited for once, in either order.
protocol OneShotEvent: Sendable {
    func signal()
    func wait() async
}

extension ContinuationEvent: OneShotEvent {}

/// An `AsyncCondition` and its signal as one event.
struct ConditionEvent: OneShotEvent {
    let condition: AsyncCondition
    let sender: AsyncSignal

    func signal() { sender.signal() }

    func wait() async {
        await uncancelled { try await condition.wait() }
    }
}
