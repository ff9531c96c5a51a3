@testable import Harness
import Testing

/// The strategies driven directly, without threads, through small synthetic programs: each
/// decision hands them a candidate list as an execution would.
@Suite("Harness: strategies on synthetic choices")
struct SchedulingStrategyTests {
    static let randomized: [Strategy] = [.random, .pct(depth: 3), .pos, .surw, .guided, .portfolio]

    // MARK: Every strategy

    @Test("a seed gives the same schedules, another seed others", arguments: randomized)
    func deterministicForASeed(strategy: Strategy) {
        let first = schedules(strategy.makeScheduler(seed: 7), ToyProgram.standard, executions: 60)
        #expect(first == schedules(strategy.makeScheduler(seed: 7), ToyProgram.standard, executions: 60))
        #expect(first != schedules(strategy.makeScheduler(seed: 8), ToyProgram.standard, executions: 60))
    }

    @Test(
        "every strategy wakes waiters spuriously and runs queued jobs in both orders",
        arguments: randomized + [.exhaustive(preemptionBound: 2)])
    func coversSpuriousWakeupsAndJobOrders(strategy: Strategy) {
        let all = schedules(strategy.makeScheduler(seed: 3), ToyProgram.standard, executions: 300)
        #expect(all.contains { $0.contains(.spuriousWake(2)) })
        let firstJobs = Set(all.map { $0.first })
        #expect(firstJobs == [.job(JobIdentity(task: 0, enqueueOrder: 0)), .job(JobIdentity(task: 1, enqueueOrder: 1))])
    }

    // MARK: Exhaustive search

    /// The standard program has 180 schedules: two job orders times 90 interleavings of
    /// T0's and T1's two steps each (6) and, with a spurious wake-up while one of those is
    /// left, of the waiter's wake-up and step too (84). Four have no preemption.
    @Test(
        "exhaustive search runs every schedule within its bound exactly once, then says it is done",
        arguments: [(0, 4), (1, 40), (2, 112), (3, 180), (9, 180)]
    )
    func exhaustiveEnumeratesExactly(bound: Int, expected: Int) {
        #expect(ToyProgram.standard.count(withinCost: bound) == expected)
        var strategy: any SchedulingStrategy = BoundedExhaustive(preemptionBound: bound)
        var seen: [[Choice]] = []
        while let schedule = run(&strategy, ToyProgram.standard, execution: seen.count), seen.count <= expected {
            seen.append(schedule)
        }
        #expect(seen.count == expected)
        #expect(Set(seen).count == seen.count)
        #expect(seen.allSatisfy { ToyProgram.standard.cost(of: $0) <= bound })
    }

    @Test("exhaustive search runs first the schedules that leave the default path least")
    func exhaustiveFewestDeparturesFirst() {
        var strategy: any SchedulingStrategy = BoundedExhaustive(preemptionBound: 2)
        var departures: [Int] = []
        while let schedule = run(&strategy, ToyProgram.standard, execution: departures.count) {
            departures.append(ToyProgram.standard.departures(of: schedule))
        }
        #expect(departures == departures.sorted())
        #expect(departures.first == 0 && departures.last! > 2)
        #expect(departures.count == 112)
    }

    // MARK: PCT

    @Test("PCT gives tasks priorities, and a change point at a job step lets another task's job run")
    func pctOrdersJobsByTask() {
        let orders = { (depth: Int) in
            Set(schedules(PriorityChangePoints(seed: 5, depth: depth), TaskProgram(), executions: 200))
        }
        // Without change points the higher-priority task runs all its jobs first, either way round.
        #expect(orders(1).count == 2)
        // With one, a task can be lowered between its own jobs.
        #expect(orders(2).count > 2)
    }

    /// T0 takes 30 steps first, then two on X; T1 one step on X. The bug is T1's step between
    /// T0's last two, which needs T0 lowered at its last step: a change point at one of the
    /// two decisions that count when T0 goes first (half the executions), a quarter of all of
    /// them. Counting the 30 earlier steps too (where T0 runs alone, or about to do something
    /// that commutes with everything) would leave the bug to about 1 execution in 60.
    @Test(
        "PCT draws change points only among decisions that can order conflicting steps",
        arguments: [PrefixProgram.Prefix.alone, .commuting]
    )
    func pctSkipsDecisionsThatOrderNothing(prefix: PrefixProgram.Prefix) {
        let all = schedules(PriorityChangePoints(seed: 9, depth: 2), PrefixProgram(prefix), executions: 400).dropFirst()
        let bug: [Choice] = [.thread(0), .thread(1), .thread(0)]
        let share = Double(all.filter { Array($0.suffix(3)) == bug }.count) / Double(all.count)
        #expect((0.18...0.32).contains(share))
    }

    /// PCT keeps its state in a box of its own, copied on write: a copy made before the
    /// original learns from longer executions (more decisions to draw change points among)
    /// chooses as a strategy that never met them.
    @Test("a copy of PCT is a value: what the original does after the copy does not reach it")
    func pctCopiesAreValues() {
        var original: any SchedulingStrategy = PriorityChangePoints(seed: 4, depth: 3)
        let copy = original
        let long = ToyProgram(
            jobs: [], steps: Array(repeating: Array(repeating: ToyProgram.x, count: 12), count: 2), waits: false)
        for index in 0..<5 { _ = run(&original, long, execution: index) }
        let fresh = schedules(PriorityChangePoints(seed: 4, depth: 3), ToyProgram.standard, executions: 60)
        #expect(schedules(copy, ToyProgram.standard, executions: 60) == fresh)
        #expect(schedules(original, ToyProgram.standard, executions: 60) != fresh)
    }

    // MARK: POS

    @Test("POS gives fresh priorities to the events that race with the one that ran, and only to those")
    func posRerandomizesRacingEvents() {
        // T0 takes two steps on cell X; T1 one step, on Y (no race) or on X (a race). T1's step
        // comes last with probability 1/3 without a race (its priority is kept, and it lost to
        // T0's first step) and 1/4 with one (its priority is drawn again).
        func lastShare(_ t1: Access) -> Double {
            let program = ToyProgram(jobs: [], steps: [[ToyProgram.x, ToyProgram.x], [t1]], waits: false)
            let all = schedules(PartialOrderSampling(seed: 11), program, executions: 4_000)
            return Double(all.filter { $0.last == .thread(1) }.count) / Double(all.count)
        }
        #expect((0.30...0.37).contains(lastShare(ToyProgram.y)))
        #expect((0.22...0.28).contains(lastShare(ToyProgram.x)))
    }

    // MARK: SURW

    @Test("SURW picks threads in proportion to the events they have left; random walk does not")
    func surwWeightsByRemainingEvents() {
        // T0 has nine steps on shared state, T1 one: after a first execution to learn that,
        // T0 goes first in about 9 of 10 executions, against 1 in 2 under random walk.
        let program = ToyProgram(
            jobs: [], steps: [Array(repeating: ToyProgram.x, count: 9), [ToyProgram.x]], waits: false)
        func firstShare(_ strategy: any SchedulingStrategy) -> Double {
            let all = schedules(strategy, program, executions: 1_000).dropFirst()
            return Double(all.filter { $0.first == .thread(0) }.count) / Double(all.count)
        }
        #expect(firstShare(SelectivelyUniformRandomWalk(seed: 4)) > 0.85)
        #expect((0.45...0.55).contains(firstShare(RandomWalk(seed: 4))))
    }

    // MARK: Random walk

    @Test("random walk picks threads uniformly, and an injected candidate once in 32, wherever they stand")
    func randomWalkIsUniform() {
        // Injected candidates between the threads, as no execution offers them: a choice that
        // took its draw for the index regardless would pick them a third of the time.
        let candidates = [
            Candidate(.spuriousWake(3)), Candidate(.thread(0)), Candidate(.thread(1)), Candidate(.advanceClock),
            Candidate(.thread(2))
        ]
        var strategy = RandomWalk(seed: 5)
        _ = strategy.beginExecution(0)
        var picks: [Choice: Int] = [:]
        let draws = 32_000
        for _ in 0..<draws {
            let picked = candidates.withCandidates { strategy.choose(among: $0, running: nil) }
            picks[candidates[picked].choice, default: 0] += 1
        }
        for thread in 0..<3 {
            #expect((0.30...0.35).contains(Double(picks[.thread(thread)] ?? 0) / Double(draws)))
        }
        for injected in [Choice.spuriousWake(3), .advanceClock] {
            #expect((0.010...0.022).contains(Double(picks[injected] ?? 0) / Double(draws)))
        }
    }

    // MARK: Portfolio

    @Test("the portfolio rotates its members, each counting its own executions, and skips one that is done")
    func portfolioRotates() {
        let log = SpyLog()
        var portfolio = Portfolio([
            SpyStrategy(name: "a", log: log),
            SpyStrategy(name: "b", log: log, executions: 1),
            SpyStrategy(name: "c", log: log)
        ])
        for index in 0..<8 {
            let began = portfolio.beginExecution(index)
            #expect(began)
            _ = [Candidate(.thread(0))].withCandidates { portfolio.choose(among: $0, running: nil) }
            portfolio.endExecution(steps: 1)
        }
        #expect(log.entries == ["a0", "b0", "c0", "a1", "c1", "c2", "a2", "c3"])
        #expect(log.choices == ["a", "b", "c", "a", "c", "c", "a", "c"])

        var done = Portfolio([
            SpyStrategy(name: "d", log: log, executions: 1), SpyStrategy(name: "e", log: log, executions: 0)
        ])
        let began = done.beginExecution(0)
        let beganAgain = done.beginExecution(1)
        #expect(began && !beganAgain)
    }

    @Test("the portfolio seeds each member on its own")
    func portfolioSeedsMembers() {
        let twice = Strategy(kind: .portfolio([.random, .random])).makeScheduler(seed: 9)
        let all = schedules(twice, ToyProgram.standard, executions: 40)
        let first = stride(from: 0, to: all.count, by: 2).map { all[$0] }
        let second = stride(from: 1, to: all.count, by: 2).map { all[$0] }
        #expect(first != second)
    }

    @Test("HARNESS_STRATEGY spells the new strategies pos, surw and portfolio, without parameters")
    func parsing() throws {
        #expect(try Strategy(parsing: "pos") == .pos)
        #expect(try Strategy(parsing: "surw") == .surw)
        #expect(try Strategy(parsing: "portfolio") == .portfolio)
        for strategy in [Strategy.pos, .surw, .portfolio] {
            #expect(try Strategy(parsing: strategy.description) == strategy)
        }
        #expect(throws: HarnessConfigurationError.self) { try Strategy(parsing: "pos:2") }
    }
}

// MARK: Synthetic programs

/// What a strategy is driven through: a source of decisions, each a candidate list.
protocol SyntheticProgram {
    /// The candidates of the next decision; empty when the program has finished.
    var candidates: [Candidate] { get }
    /// The thread that took the last step, when it is among the candidates.
    var running: Int? { get }
    mutating func take(_ choice: Choice)
}

/// Threads with a list of steps each, each step touching the shared state it names; first a
/// lane runs the queued jobs (a decision while two are queued); and, when `waits`, one more
/// thread that waits on a condition until a spurious wake-up, then takes one step.
private struct ToyProgram: SyntheticProgram {
    private final class Object: Sendable {}
    private static let objects = (Object(), Object(), Object())
    static let x = Access(object: .shared(ObjectIdentifier(objects.0)), isRead: false)
    static let y = Access(object: .shared(ObjectIdentifier(objects.1)), isRead: false)
    static let condition = Access(object: .shared(ObjectIdentifier(objects.2)), isRead: false)

    /// Two jobs of two tasks; T0 and T1 with two steps on X each; T2 waiting.
    static let standard = ToyProgram(
        jobs: [JobIdentity(task: 0, enqueueOrder: 0), JobIdentity(task: 1, enqueueOrder: 1)],
        steps: [[x, x], [x, x]],
        waits: true
    )

    var jobs: [JobIdentity]
    var steps: [[Access?]]
    var waits: Bool
    private var waiterWoke = false
    private var waiterDone = false
    private var last: Int?

    init(jobs: [JobIdentity], steps: [[Access?]], waits: Bool) {
        self.jobs = jobs
        self.steps = steps
        self.waits = waits
    }

    private var waiter: Int { steps.count }

    var candidates: [Candidate] {
        if !jobs.isEmpty { return jobs.map { Candidate(.job($0), access: Access(object: .jobQueue, isRead: false)) } }
        var candidates = steps.indices.compactMap { thread in
            steps[thread].first.map { Candidate(.thread(thread), access: $0) }
        }
        if waits && waiterWoke && !waiterDone { candidates.append(Candidate(.thread(waiter), access: Self.y)) }
        if waits && !waiterWoke && !candidates.isEmpty {
            candidates.append(Candidate(.spuriousWake(waiter), access: Self.condition))
        }
        return candidates
    }

    var running: Int? {
        last.flatMap { thread in candidates.contains { $0.choice == .thread(thread) } ? thread : nil }
    }

    mutating func take(_ choice: Choice) {
        switch choice {
        case .job(let job):
            jobs.removeAll { $0 == job }
            last = nil
        case .thread(let thread) where thread == waiter:
            waiterDone = true
            last = nil
        case .thread(let thread):
            steps[thread].removeFirst()
            last = thread
        case .spuriousWake:
            waiterWoke = true
        case .advanceClock:
            preconditionFailure("the synthetic program has no deadline, so no early timeout")
        }
    }

    /// What the schedule costs the exhaustive search: 1 a preemption or spurious wake-up.
    func cost(of schedule: [Choice]) -> Int {
        var program = self
        var cost = 0
        for choice in schedule {
            cost += Self.cost(of: choice, running: program.running)
            program.take(choice)
        }
        return cost
    }

    /// How often the schedule leaves the default path: a choice other than the running
    /// thread while it can run, else other than the first thread or job.
    func departures(of schedule: [Choice]) -> Int {
        var program = self
        var departures = 0
        for choice in schedule {
            let candidates = program.candidates.map(\.choice)
            let running = program.running.map(Choice.thread).flatMap { candidates.contains($0) ? $0 : nil }
            let standard = running ?? candidates.first { !$0.isInjected }
            if choice != standard { departures += 1 }
            program.take(choice)
        }
        return departures
    }

    /// How many complete schedules cost at most `bound`: the oracle for exhaustive search.
    func count(withinCost bound: Int, spent: Int = 0) -> Int {
        let candidates = self.candidates
        guard !candidates.isEmpty else { return 1 }
        return candidates.reduce(0) { total, candidate in
            let cost = spent + Self.cost(of: candidate.choice, running: running)
            guard cost <= bound else { return total }
            var next = self
            next.take(candidate.choice)
            return total + next.count(withinCost: bound, spent: cost)
        }
    }

    private static func cost(of choice: Choice, running: Int?) -> Int {
        switch choice {
        case .spuriousWake, .advanceClock: 1
        case .thread(let thread): running.map { $0 == thread ? 0 : 1 } ?? 0
        case .job: 0
        }
    }
}

/// Two tasks of three jobs each, one job of each queued at a time: a lane picks which task's
/// next job runs at every decision while both have one queued.
private struct TaskProgram: SyntheticProgram {
    private var left = [3, 3]
    /// The enqueue order of each task's queued job.
    private var queued = [0, 1]
    private var enqueued = 2

    var candidates: [Candidate] {
        left.indices.filter { left[$0] > 0 }.map { task in
            Candidate(
                .job(JobIdentity(task: task, enqueueOrder: queued[task])),
                access: Access(object: .jobQueue, isRead: false))
        }
    }

    var running: Int? { nil }

    mutating func take(_ choice: Choice) {
        guard case .job(let job) = choice, let task = job.task else { return }
        left[task] -= 1
        queued[task] = enqueued
        enqueued += 1
    }
}

/// T0 takes 30 steps, then two steps on X; T1 takes one step on X. Before its two steps T0
/// either runs `alone` (T1 starts after them, as a thread spawned late) or takes steps that
/// touch no shared state while T1 could run (`commuting`, as a thread starting or joining).
struct PrefixProgram: SyntheticProgram {
    enum Prefix: Sendable {
        case alone
        case commuting
    }

    private let prefix: Prefix
    private var prefixLeft = 30
    private var t0Left = 2
    private var t1Left = 1
    private(set) var running: Int?

    init(_ prefix: Prefix) {
        self.prefix = prefix
    }

    var candidates: [Candidate] {
        var candidates: [Candidate] = []
        if prefixLeft > 0 {
            candidates.append(Candidate(.thread(0), access: prefix == .alone ? ToyProgram.x : nil))
            if prefix == .alone { return candidates }
        } else if t0Left > 0 {
            candidates.append(Candidate(.thread(0), access: ToyProgram.x))
        }
        if t1Left > 0 { candidates.append(Candidate(.thread(1), access: ToyProgram.x)) }
        return candidates
    }

    mutating func take(_ choice: Choice) {
        guard case .thread(let thread) = choice else { preconditionFailure("only threads step here") }
        if thread == 1 {
            t1Left -= 1
        } else if prefixLeft > 0 {
            prefixLeft -= 1
        } else {
            t0Left -= 1
        }
        running = candidates.contains { $0.choice == choice } ? thread : nil
    }
}

/// Runs execution `index` of `program` under `strategy`; `nil` when the strategy has nothing
/// left to explore. Like an execution, it asks the strategy about jobs only while two or
/// more are queued.
private func run(_ strategy: inout any SchedulingStrategy, _ program: some SyntheticProgram, execution index: Int)
    -> [Choice]?
{
    guard strategy.beginExecution(index) else { return nil }
    strategy.threadCreated(0, by: nil)
    strategy.threadCreated(1, by: 0)
    strategy.threadCreated(2, by: 0)
    var program = program
    var schedule: [Choice] = []
    while case let candidates = program.candidates, !candidates.isEmpty {
        let choice: Choice
        if candidates.count == 1, case .job = candidates[0].choice {
            choice = candidates[0].choice
        } else {
            choice =
                candidates[candidates.withCandidates { strategy.choose(among: $0, running: program.running) }].choice
        }
        schedule.append(choice)
        program.take(choice)
    }
    strategy.endExecution(steps: schedule.count)
    return schedule
}

/// The schedules of the first `executions` executions (fewer if the strategy runs out).
private func schedules(_ strategy: any SchedulingStrategy, _ program: some SyntheticProgram, executions: Int)
    -> [[Choice]]
{
    var strategy = strategy
    var all: [[Choice]] = []
    while all.count < executions, let schedule = run(&strategy, program, execution: all.count) {
        all.append(schedule)
    }
    return all
}

// MARK: A strategy that records how it is used

private final class SpyLog {
    var entries: [String] = []
    var choices: [String] = []
}

private struct SpyStrategy: SchedulingStrategy {
    let name: String
    let log: SpyLog
    var executions = Int.max

    mutating func beginExecution(_ index: Int) -> Bool {
        guard index < executions else { return false }
        log.entries.append("\(name)\(index)")
        return true
    }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        log.choices.append(name)
        return 0
    }
}
