@testable import Harness
import Primitives
import Testing

/// The execution model driven by events alone, without threads: each test sends the events
/// an execution's threads would and checks the model's actions and state.
@Suite("Harness: the execution model, without threads")
struct ExecutionModelTests {
    // MARK: Mutexes

    @Test("a second lock of a held mutex is not a candidate until the owner unlocks it")
    func mutexExclusion() throws {
        var driver = try ModelDriver(threads: 2)
        try driver.take(0, .lock(Objects.m, recursive: false))
        driver.arrive(1, .lock(Objects.m, recursive: false))
        driver.arrive(0, .unlock(Objects.m))
        #expect(driver.candidates(running: 0).map(\.choice) == [.thread(0)])
        try driver.run(0)
        #expect(driver.model.owner(of: Objects.m) == nil)
        driver.arrive(0, .atomic(Objects.x, .load))
        #expect(driver.candidates(running: 0).map(\.choice) == [.thread(0), .thread(1)])
        try driver.run(1)
        #expect(driver.model.owner(of: Objects.m) == 1)
    }

    @Test("a recursive mutex is released by as many unlocks as its owner took locks")
    func recursiveDepth() throws {
        var driver = try ModelDriver(threads: 2)
        try driver.take(0, .lock(Objects.m, recursive: true))
        try driver.take(0, .lock(Objects.m, recursive: true))
        driver.arrive(1, .lock(Objects.m, recursive: true))
        try driver.take(0, .unlock(Objects.m))
        #expect(driver.model.owner(of: Objects.m) == 0)
        driver.arrive(0, .yield)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(0)])
        try driver.take(0, .unlock(Objects.m))
        #expect(driver.model.owner(of: Objects.m) == nil)
        driver.arrive(0, .yield)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(0), .thread(1)])
    }

    @Test("tryLock fails on a mutex another thread holds, and takes it once it is free")
    func tryLock() throws {
        var driver = try ModelDriver(threads: 2)
        try driver.take(0, .lock(Objects.m, recursive: false))
        #expect(try driver.take(1, .tryLock(Objects.m, recursive: false)) == .continues)
        #expect(driver.replies.last == .tryLock(tookMutex: false))
        #expect(driver.model.owner(of: Objects.m) == 0)
        try driver.take(0, .unlock(Objects.m))
        try driver.take(1, .tryLock(Objects.m, recursive: false))
        #expect(driver.replies.last == .tryLock(tookMutex: true))
        #expect(driver.model.owner(of: Objects.m) == 1)
    }

    @Test("releasing a mutex the thread does not hold fails the execution, naming the thread")
    func releasingUnheldMutex() throws {
        var driver = try ModelDriver(threads: 2)
        try driver.take(0, .lock(Objects.m, recursive: false))
        let location = SeamLocation(fileID: "Module/Unheld.swift", line: 12)
        #expect(try driver.take(1, .unlock(Objects.m), at: location) == .fails)
        #expect(driver.model.failure == .unheldUnlock(thread: 1, mutex: SharedObject(.mutex, 1), location: location))
        #expect(driver.model.isWindingDown)
        #expect(driver.model.owner(of: Objects.m) == 0)
    }

    @Test("a model made in the storage an ended model left starts as a new one does, in that storage")
    func reusedStorage() throws {
        var first = try ModelDriver(threads: 3)
        #expect(first.model.name(Objects.m, .mutex) == SharedObject(.mutex, 1))
        #expect(first.model.name(Objects.n, .mutex) == SharedObject(.mutex, 2))
        try first.take(0, .lock(Objects.m, recursive: false))
        try first.take(2, .lock(Objects.n, recursive: false))
        #expect(try first.take(2, .wait(condition: Objects.c, mutex: Objects.n, deadline: nil)) == .blocks)
        let grown = first.model.threads.withUnsafeBufferPointer { $0.baseAddress }
        var leftovers = ExecutionModel.Leftovers()
        first.model.leave(in: &leftovers)

        var second = try ModelDriver(threads: 2, reusing: &leftovers)
        #expect(second.model.threads.count == 2)
        #expect(second.model.threads.withUnsafeBufferPointer { $0.baseAddress } == grown)
        #expect(second.model.name(Objects.n, .mutex) == SharedObject(.mutex, 1))
        #expect(second.model.owner(of: Objects.m) == nil)
        #expect(try second.take(0, .signal(Objects.c)) == .continues)
        try second.take(1, .lock(Objects.m, recursive: false))
        #expect(second.model.owner(of: Objects.m) == 1)
        #expect(second.model.failure == nil)
    }

    @Test("a model restarted in place after an execution is, field by field, a new one")
    func restartedInPlace() throws {
        let limits = Execution.Limits()
        var driver = try ModelDriver(threads: 3, limits: limits)
        driver.model.noteInternalObjects([Objects.x])
        driver.model.roleOfSpawnedThreads = .executor
        try driver.take(0, .lock(Objects.m, recursive: false))
        try driver.take(1, .atomic(Objects.n, .store))
        let now = driver.model.clock
        #expect(try driver.take(0, .wait(condition: Objects.c, mutex: Objects.m, deadline: now + 5)) == .blocks)
        driver.arrive(2, .sleep(until: now + 7))
        _ = driver.decide(running: nil)
        #expect(try driver.take(1, .unlock(Objects.m)) == .fails)
        #expect(driver.model.isWindingDown && driver.model.stepCount > 0 && !driver.model.decisions.isEmpty)

        var noDecisions: [ScheduleDecision] = []
        driver.model.restart(decisionStorage: &noDecisions)
        #expect(!noDecisions.isEmpty, "the ended execution's decisions come back")
        var none: [ScheduleDecision] = []
        var nothingLeft = ExecutionModel.Leftovers()
        let new = ExecutionModel(limits: limits, decisionStorage: &none, reusing: &nothingLeft)
        expectSameStoredProperties(driver.model, as: new)
    }

    // MARK: Conditions

    @Test("a wait releases the mutex; a signal moves the first waiter to re-acquiring it")
    func waitAndSignal() throws {
        var driver = try ModelDriver(threads: 3)
        try driver.take(0, .lock(Objects.m, recursive: false))
        #expect(try driver.take(0, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil)) == .blocks)
        #expect(driver.model.owner(of: Objects.m) == nil)
        try driver.take(1, .lock(Objects.m, recursive: false))
        #expect(try driver.take(1, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil)) == .blocks)
        try driver.take(2, .lock(Objects.m, recursive: false))
        try driver.take(2, .signal(Objects.c))
        #expect(driver.pending(0) == .reacquire(mutex: Objects.m))
        #expect(driver.pending(1) == nil)
        // T0 re-acquires only once T2 has let go of the mutex.
        driver.arrive(2, .unlock(Objects.m))
        #expect(driver.candidates(running: 2).map(\.choice).filter { $0 == .thread(0) }.isEmpty)
        try driver.run(2)
        driver.arrive(2, .yield)
        try driver.run(0)
        #expect(driver.model.owner(of: Objects.m) == 0)
        #expect(driver.model.threads[0].waitResult == .signalled)
    }

    @Test("a broadcast moves every waiter to re-acquiring the mutex, and they take it one at a time")
    func broadcast() throws {
        var driver = try ModelDriver(threads: 3)
        for waiter in [0, 1] {
            try driver.take(waiter, .lock(Objects.m, recursive: false))
            try driver.take(waiter, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil))
        }
        try driver.take(2, .broadcast(Objects.c))
        #expect(driver.pending(0) == .reacquire(mutex: Objects.m) && driver.pending(1) == .reacquire(mutex: Objects.m))
        try driver.run(1)
        driver.arrive(2, .yield)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(2)])
    }

    @Test(
        "a waiter may wake spuriously, after the threads that can run, unless it waits on the harness's own condition")
    func spuriousWakeups() throws {
        var driver = try Self.waitingT0(limits: Execution.Limits(), internalCondition: false)
        #expect(driver.candidates(running: 1).map(\.choice) == [.thread(1), .spuriousWake(0)])
        let withoutSpurious = try Self.waitingT0(
            limits: Execution.Limits(spuriousWakeups: false), internalCondition: false)
        #expect(withoutSpurious.candidates(running: 1).map(\.choice) == [.thread(1)])
        let ownCondition = try Self.waitingT0(limits: Execution.Limits(), internalCondition: true)
        #expect(ownCondition.candidates(running: 1).map(\.choice) == [.thread(1)])

        // Chosen, the wake-up is a step of the waiter's; the next pass runs a thread.
        #expect(driver.decide(running: 1, choosing: .spuriousWake(0)) == .run(0))
        let woke = try #require(driver.steps.last)
        #expect(woke.thread == 0 && woke.kind == .spuriousWake && woke.target == .object(SharedObject(.condition, 1)))
        #expect(driver.model.threads[0].waitResult == .signalled)
    }

    /// T0 waits on the condition (the harness's own with `internalCondition`), T1 yields.
    private static func waitingT0(limits: Execution.Limits, internalCondition: Bool) throws -> ModelDriver {
        var driver = try ModelDriver(threads: 2, limits: limits)
        if internalCondition { driver.model.noteInternalObjects([Objects.c]) }
        try driver.take(0, .lock(Objects.m, recursive: false))
        try driver.take(0, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil))
        driver.arrive(1, .yield)
        return driver
    }

    @Test("when nothing can run the clock advances to the earliest deadline, and only the waits it reaches time out")
    func timedWait() throws {
        var driver = try ModelDriver(threads: 3)
        let start = driver.model.clock
        try driver.take(0, .lock(Objects.m, recursive: false))
        try driver.take(0, .wait(condition: Objects.c, mutex: Objects.m, deadline: start + 10_000_000))
        try driver.take(1, .lock(Objects.m, recursive: false))
        try driver.take(1, .wait(condition: Objects.c, mutex: Objects.m, deadline: start + 5_000_000))
        driver.arrive(2, .yield)
        #expect(driver.decide(running: nil) == .run(2))
        #expect(driver.model.clock == start)
        _ = try driver.perform(2)
        _ = driver.model.exit(2)
        #expect(driver.decide(running: nil) == .run(1))
        #expect(driver.model.clock == start + 5_000_000)
        #expect(
            driver.steps.last?.kind == .advanceClock
                && driver.steps.last?.target == .clockAdvance(nanoseconds: 5_000_000))
        #expect(driver.model.threads[1].waitResult == .timedOut)
        #expect(driver.pending(0) == nil)
    }

    @Test(
        "a wait whose deadline was reached times out at once, and the thread that could satisfy it may go first",
        arguments: [UInt64(0), 1_000_000]
    )
    func dueWaitTimesOutAtOnce(overdue: UInt64) throws {
        var driver = try ModelDriver(threads: 2)
        let now = driver.model.clock
        try driver.take(0, .lock(Objects.m, recursive: false))
        driver.arrive(1, .lock(Objects.m, recursive: false))
        let due = PendingOperation.wait(condition: Objects.c, mutex: Objects.m, deadline: now - overdue)
        #expect(try driver.take(0, due) == .timedOut)
        #expect(driver.model.threads[0].waitResult == .timedOut)
        #expect(driver.pending(0) == .reacquire(mutex: Objects.m))
        #expect(driver.model.owner(of: Objects.m) == nil)
        // The waiter is still the running thread, and the other may take the mutex first.
        #expect(driver.candidates(running: 0).map(\.choice) == [.thread(0), .thread(1)])
        #expect(driver.candidates(running: 0, earlyTimeoutWithin: .max).map(\.choice) == [.thread(0), .thread(1)])
        try driver.run(1)
        driver.arrive(1, .unlock(Objects.m))
        #expect(driver.candidates(running: 1).map(\.choice) == [.thread(1)])
        #expect(driver.model.clock == now)
        #expect(!driver.steps.contains { $0.kind == .advanceClock })
    }

    @Test("a wait whose deadline is still to come parks until the clock reaches it")
    func futureWaitParks() throws {
        var driver = try ModelDriver(threads: 2)
        try driver.take(0, .lock(Objects.m, recursive: false))
        let future = PendingOperation.wait(condition: Objects.c, mutex: Objects.m, deadline: driver.model.clock + 1)
        #expect(try driver.take(0, future) == .blocks)
        driver.arrive(1, .yield)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(1), .spuriousWake(0)])
    }

    @Test("a sleep whose deadline was reached can run at once, among the others, and the clock stays")
    func dueSleep() throws {
        var driver = try ModelDriver(threads: 2)
        let now = driver.model.clock
        driver.arrive(0, .sleep(until: now))
        driver.arrive(1, .yield)
        #expect(driver.candidates(running: 0).map(\.choice) == [.thread(0), .thread(1)])
        #expect(driver.candidates(running: 0, earlyTimeoutWithin: .max).map(\.choice) == [.thread(0), .thread(1)])
        try driver.run(0)
        #expect(driver.model.clock == now)
    }

    @Test("a sleeper runs once the clock reaches its deadline; an early timeout is offered only when asked for")
    func sleep() throws {
        var driver = try ModelDriver(threads: 2)
        let deadline = driver.model.clock + 3_000_000
        driver.arrive(0, .sleep(until: deadline))
        driver.arrive(1, .yield)
        #expect(driver.candidates(running: 1).map(\.choice) == [.thread(1)])
        #expect(driver.candidates(running: 1, earlyTimeoutWithin: .max).map(\.choice) == [.thread(1), .advanceClock])
        try driver.run(1)
        _ = driver.model.exit(1)
        #expect(driver.decide(running: nil) == .run(0))
        #expect(driver.model.clock == deadline)
    }

    @Test(
        "an early timeout is offered only for a deadline within the bound of the clock",
        arguments: [
            (UInt64(2_999_999), false), (3_000_000, true), (3_000_001, true)
        ])
    func earlyTimeoutBound(bound: UInt64, offered: Bool) throws {
        var driver = try ModelDriver(threads: 3)
        let now = driver.model.clock
        driver.arrive(0, .sleep(until: now + 3_000_000))
        driver.arrive(1, .sleep(until: now + 3_000_000 + 3_600_000_000_000))
        driver.arrive(2, .yield)
        let early: [Choice] = offered ? [.advanceClock] : []
        #expect(driver.candidates(running: 2, earlyTimeoutWithin: bound).map(\.choice) == [.thread(2)] + early)
        _ = driver.model.exit(2)
        #expect(driver.decide(running: nil) == .run(0))
        _ = try driver.perform(0)
        // The next deadline, an hour on, is beyond the bound: no early timeout.
        driver.arrive(0, .yield)
        #expect(driver.candidates(running: 0, earlyTimeoutWithin: bound).map(\.choice) == [.thread(0)])
    }

    // MARK: Threads

    @Test("a join can go on only once its target has finished")
    func join() throws {
        var driver = try ModelDriver(threads: 2)
        driver.arrive(0, .join(1))
        driver.arrive(1, .yield)
        #expect(driver.candidates(running: 0).map(\.choice) == [.thread(1)])
        try driver.run(1)
        #expect(driver.model.exit(1)?.kind == .exit)
        #expect(driver.decide(running: nil) == .run(0))
    }

    @Test("a cancel wakes a cancellable waiter, which re-acquires its mutex; a non-cancellable waiter keeps waiting")
    func cancelWakesWaiter() throws {
        var driver = try ModelDriver(threads: 3)
        try driver.take(1, .lock(Objects.m, recursive: false))
        try driver.take(1, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil))
        try driver.take(2, .lock(Objects.n, recursive: false))
        try driver.take(2, .wait(condition: Objects.c, mutex: Objects.n, deadline: nil), cancellable: false)
        try driver.take(0, .cancel(1))
        try driver.take(0, .cancel(2))
        #expect(driver.pending(1) == .reacquire(mutex: Objects.m))
        #expect(driver.pending(2) == nil)
        #expect(driver.model.threads[2].cancelRequested)
        // A thread with a request pending does not block at its next wait.
        try driver.run(1)
        #expect(try driver.take(1, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil)) == .continues)
        #expect(driver.model.owner(of: Objects.m) == 1)
    }

    @Test("a spawn beyond the limit fails the execution")
    func tooManyThreads() throws {
        var driver = try ModelDriver(threads: 2, limits: Execution.Limits(maxThreads: 2))
        #expect(try driver.take(0, .spawn) == .fails)
        #expect(driver.model.failure == .tooManyThreads(2))
        #expect(driver.model.threads.count == 2)
    }

    // MARK: Failing

    @Test("a lock-order deadlock names who waits for whom and the cycle")
    func deadlock() throws {
        var driver = try ModelDriver(threads: 2)
        try driver.take(0, .lock(Objects.m, recursive: false))
        try driver.take(1, .lock(Objects.n, recursive: false))
        driver.arrive(0, .lock(Objects.n, recursive: false), at: SeamLocation(fileID: "Module/Bank.swift", line: 7))
        driver.arrive(1, .lock(Objects.m, recursive: false))
        #expect(driver.decide(running: 1) == .stuck)
        driver.model.failStuck(blockedTasks: [])
        #expect(
            driver.model.failure == .deadlock(waits: ExecutionFailureDescriptionTests.lockOrderWaits, cycle: [0, 1]))
        #expect(driver.model.isWindingDown)
    }

    @Test("threads left when T0 has finished are reported as still running")
    func threadsStillRunning() throws {
        var driver = try ModelDriver(threads: 2)
        try driver.take(1, .lock(Objects.m, recursive: false))
        try driver.take(1, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil))
        _ = driver.model.exit(0)
        #expect(driver.decide(running: nil) == .stuck)
        driver.model.failStuck(blockedTasks: [])
        #expect(
            driver.model.failure
                == .threadsStillRunning(waits: [
                    .thread(ThreadWait(thread: 1, reason: .signal(condition: SharedObject(.condition, 1))))
                ]))
    }

    @Test("the harness's own lock, unlock, signal and broadcast take no step, its wait one; what they do holds")
    func internalOperationsAreQuiet() throws {
        var driver = try ModelDriver(threads: 2)
        driver.model.noteInternalObjects([Objects.c, Objects.m])
        let started = driver.steps.count
        try driver.take(1, .lock(Objects.m, recursive: false))
        try driver.take(1, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil))
        #expect(driver.steps.dropFirst(started).map(\.kind) == [.wait])
        let before = driver.steps.count
        try driver.take(0, .lock(Objects.m, recursive: false))
        try driver.take(0, .signal(Objects.c))
        try driver.take(0, .broadcast(Objects.c))
        try driver.take(0, .unlock(Objects.m))
        #expect(driver.steps.count == before && driver.model.stepCount == before)
        // They took effect: T0's lock held the mutex until its unlock, its signal woke T1.
        #expect(driver.model.owner(of: Objects.m) == nil && driver.pending(1) == .reacquire(mutex: Objects.m))
        // An unlock of a mutex its thread does not hold still fails the execution.
        #expect(try driver.take(0, .unlock(Objects.m)) == .fails)
        #expect(driver.model.failure != nil && driver.steps.count == before)
    }

    @Test("tasks that wait for good while only the harness's own waits are left are a deadlock of tasks, without them")
    func tasksDeadlocked() throws {
        var driver = try ModelDriver(threads: 1)
        driver.model.noteInternalObjects([Objects.c, Objects.m])
        try driver.take(0, .lock(Objects.m, recursive: false))
        try driver.take(0, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil))
        #expect(driver.decide(running: nil) == .stuck)
        let place = CodePlace(file: "Peer.swift", line: 9, function: "f()")
        let blocked = BlockedTask(task: 1, name: "peer", waitsAt: place, startedIn: nil)
        driver.model.failStuck(blockedTasks: [blocked])
        #expect(driver.model.failure == .tasksDeadlocked(tasks: [blocked]))
    }

    @Test("when a thread of the scenario's waits too, the deadlock lists its wait, then the tasks'")
    func threadsAndTasksDeadlocked() throws {
        var driver = try ModelDriver(threads: 2)
        try driver.take(1, .lock(Objects.m, recursive: false))
        try driver.take(1, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil))
        _ = driver.model.exit(0)
        #expect(driver.decide(running: nil) == .stuck)
        let blocked = BlockedTask(task: 1, name: nil, waitsAt: nil, startedIn: nil)
        driver.model.failStuck(blockedTasks: [blocked])
        #expect(
            driver.model.failure
                == .threadsStillRunning(waits: [
                    .thread(ThreadWait(thread: 1, reason: .signal(condition: SharedObject(.condition, 1)))),
                    .task(blocked)
                ]))
    }

    @Test("every thread finished ends the execution")
    func allFinished() throws {
        var driver = try ModelDriver(threads: 2)
        _ = driver.model.exit(1)
        #expect(driver.decide(running: nil) == .stuck)
        _ = driver.model.exit(0)
        #expect(driver.decide(running: nil) == .allFinished)
    }

    @Test("a decision past the step bound fails the execution")
    func stepBound() throws {
        var driver = try ModelDriver(threads: 1, limits: Execution.Limits(maxSteps: 3))
        try driver.take(0, .atomic(Objects.x, .load))
        driver.arrive(0, .atomic(Objects.x, .load))
        #expect(driver.decide(running: 0) == .run(0))
        _ = try driver.perform(0)
        driver.arrive(0, .atomic(Objects.x, .load))
        #expect(driver.model.stepCount == 3)
        #expect(driver.decide(running: 0) == .failed)
        #expect(driver.model.failure == .stepBoundExceeded(3))
    }

    @Test("a failure noted outside fails the next decision or operation, and a step after it says so")
    func noteFailure() throws {
        var driver = try ModelDriver(threads: 2)
        #expect(driver.steps.allSatisfy { !$0.followsFailure })
        driver.model.noteFailure(.taskThrew(error: "first"))
        driver.model.noteFailure(.taskThrew(error: "second"))
        #expect(driver.model.failure == .taskThrew(error: "first"))
        #expect(!driver.model.isWindingDown)

        var decided = driver
        decided.arrive(0, .yield)
        #expect(decided.decide(running: 0) == .failed)
        #expect(decided.model.isWindingDown)

        driver.arrive(0, .atomic(Objects.x, .load))
        let performed = driver.model.perform(0)
        #expect(performed.outcome == .fails && performed.step.followsFailure)
        #expect(driver.model.isWindingDown)
        #expect(driver.model.exit(1) == nil)
    }

    // MARK: Scheduling rules

    @Test("a yielding thread is not chosen while another can run, and is when none can")
    func yieldFairness() throws {
        var driver = try ModelDriver(threads: 2)
        driver.arrive(0, .yield)
        driver.arrive(1, .atomic(Objects.x, .store))
        #expect(driver.candidates(running: 0).map(\.choice) == [.thread(1)])
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(0), .thread(1)])
        try driver.take(1, .lock(Objects.m, recursive: false))
        driver.arrive(0, .lock(Objects.m, recursive: false))
        driver.arrive(1, .yield)
        #expect(driver.candidates(running: 1).map(\.choice) == [.thread(1)])
    }

    @Test("a thread in a non-preemptible region runs whenever it can; blocked, it lets only its blocker run")
    func nonPreemptible() throws {
        var driver = try ModelDriver(threads: 3)
        try driver.take(0, .lock(Objects.m, recursive: false))
        driver.model.enterNonPreemptibleRegion(1)
        driver.arrive(1, .lock(Objects.m, recursive: false))
        driver.arrive(2, .atomic(Objects.x, .store))
        driver.arrive(0, .unlock(Objects.m))
        #expect(driver.decide(running: 2, choosing: .thread(2)) == .run(0))
        _ = try driver.perform(0)
        // T0's unlock unblocked T1: T0 steps aside and T1 runs at once.
        #expect(driver.model.stepAside(0, at: nil) == 1)
        #expect(driver.pending(0) == .handoff)
        #expect(driver.decide(running: nil, choosing: .thread(2)) == .run(1))
        // An internal operation is performed without a decision only while no urgent thread can run.
        driver.model.noteInternalObjects([Objects.n])
        #expect(driver.model.performQuietly(2, .lock(Objects.n, recursive: false), at: nil) == nil)
        #expect(
            driver.model.arrive(2, at: .lock(Objects.n, recursive: false), location: nil, cancellable: true)
                == .awaitsDecision)
        _ = try driver.perform(1)
        driver.model.exitNonPreemptibleRegion(1)
        #expect(driver.model.performQuietly(2, .lock(Objects.n, recursive: false), at: nil)?.outcome == .continues)
    }

    @Test("decisions record who could go on, and a choice of another thread counts as a preemption")
    func decisionsAndPreemptions() throws {
        var driver = try ModelDriver(threads: 2)
        let before = driver.model.decisions.count
        driver.arrive(0, .atomic(Objects.x, .load))
        driver.arrive(1, .atomic(Objects.x, .load))
        #expect(driver.decide(running: 0, choosing: .thread(1)) == .run(1))
        #expect(driver.model.decisions.dropFirst(before) == [.thread(running: 0, chosen: 1)])
        #expect(driver.model.preemptions == 1)
    }

    @Test("a decision at the running thread's arrival offers what arriving and then deciding offers, in order")
    func decisionAtArrival() throws {
        var driver = try ModelDriver(threads: 4)
        try driver.take(1, .lock(Objects.m, recursive: false))
        driver.arrive(2, .lock(Objects.m, recursive: false))
        driver.arrive(3, .atomic(Objects.x, .store))
        let operations: [PendingOperation] = [
            .atomic(Objects.x, .load), .lock(Objects.m, recursive: false), .lock(Objects.n, recursive: false),
            .unlock(Objects.m), .join(1), .join(3), .spawn
        ]
        for operation in operations {
            let atArrival = driver.decisionAtArrival(0, operation)
            #expect(atArrival != nil, "T0 arriving at \(operation) took the general path")
            #expect(atArrival?.candidates == driver.decisionAfterArriving(0, operation).candidates, "\(operation)")
            #expect(atArrival?.running == driver.decisionAfterArriving(0, operation).running, "\(operation)")
        }
        // Nothing to choose from: T0 and T3 both wait for T1's mutex.
        driver.arrive(3, .lock(Objects.m, recursive: false))
        #expect(driver.decisionAtArrival(0, .lock(Objects.m, recursive: false)) == nil)
    }

    @Test("a decision at an arrival takes the general path for a yield, a sleep, a wait, and beside a waiter")
    func decisionAtArrivalGivesWay() throws {
        var driver = try ModelDriver(threads: 2)
        driver.arrive(1, .atomic(Objects.x, .store))
        #expect(driver.decisionAtArrival(0, .yield) == nil)
        #expect(driver.decisionAtArrival(0, .sleep(until: driver.model.clock + 1)) == nil)
        try driver.take(0, .lock(Objects.m, recursive: false))
        #expect(driver.decisionAtArrival(0, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil)) == nil)
        #expect(driver.decisionAtArrival(0, .atomic(Objects.x, .load)) != nil)
        try driver.run(1)
        try driver.take(1, .lock(Objects.n, recursive: false))
        try driver.take(1, .wait(condition: Objects.c, mutex: Objects.n, deadline: nil))
        #expect(driver.decisionAtArrival(0, .atomic(Objects.x, .load)) == nil)
    }

    /// The waiter waits on the harness's own condition, or on the code's with spurious wake-ups off.
    @Test(
        "beside a waiter that cannot wake spuriously, a decision at an arrival offers what the general path does",
        arguments: [true, false])
    func decisionAtArrivalBesideAnUnwakeableWaiter(internalCondition: Bool) throws {
        var limits = Execution.Limits()
        limits.spuriousWakeups = internalCondition
        var driver = try ModelDriver(threads: 3, limits: limits)
        if internalCondition { driver.model.noteInternalObjects([Objects.c]) }
        try driver.take(1, .lock(Objects.n, recursive: false))
        try driver.take(1, .wait(condition: Objects.c, mutex: Objects.n, deadline: nil))
        driver.arrive(2, .atomic(Objects.x, .store))
        let load = PendingOperation.atomic(Objects.x, .load)
        let atArrival = try #require(driver.decisionAtArrival(0, load))
        #expect(atArrival == driver.decisionAfterArriving(0, load))
        #expect(atArrival.candidates.map(\.choice) == [.thread(0), .thread(2)])
    }

    @Test("a thread chosen at its arrival performs without a pending state; one passed over is left ready")
    func takeAtArrival() throws {
        var driver = try ModelDriver(threads: 2)
        driver.arrive(1, .atomic(Objects.x, .store))
        let load = PendingOperation.atomic(Objects.x, .load)
        _ = driver.model.decide(arriving: 0, at: load, cancellable: true)
        #expect(driver.model.take(.thread(0), running: 0, arriving: 0, at: load, location: nil) == 0)
        #expect(driver.pending(0) == nil)
        let performed = driver.model.perform(load, of: 0, at: nil)
        #expect(performed.step.thread == 0 && performed.step.kind == .atomicLoad && performed.outcome == .continues)
        _ = driver.model.decide(arriving: 0, at: load, cancellable: true)
        #expect(driver.model.take(.thread(1), running: 0, arriving: 0, at: load, location: nil) == 1)
        #expect(driver.pending(0) == load)
        #expect(driver.model.decisions.suffix(2) == [.thread(running: 0, chosen: 0), .thread(running: 0, chosen: 1)])
        #expect(driver.model.preemptions == 1)
    }

    @Test("an idle interchangeable lane about to take the same operation as another is a symmetric copy")
    func idleLanesAreSymmetric() throws {
        var driver = try ModelDriver(threads: 1)
        try driver.spawnExecutorThreads([.interchangeableLane, .interchangeableLane])
        driver.model.noteExecutor(queuedJobs: 1, isQuiet: false, isClosed: false)
        for lane in [1, 2] {
            try driver.run(lane)
            driver.arrive(lane, .takeJob)
        }
        driver.arrive(0, .yield)
        #expect(driver.candidates(running: nil).map(\.isSymmetricCopy) == [false, false, true])
        driver.model.lane(1, runs: JobIdentity(task: 0, enqueueOrder: 0))
        #expect(driver.candidates(running: nil).map(\.isSymmetricCopy) == [false, false, false])
    }

    @Test("an idle lane goes on from its start or its last job only once a job is queued or the executor is done")
    func idleLaneWaitsForWork() throws {
        var driver = try ModelDriver(threads: 1)
        try driver.spawnExecutorThreads([.interchangeableLane, .executor])
        driver.arrive(0, .yield)
        // The lane (T1) has not started; the main lane (T2), not interchangeable, may.
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(0), .thread(2)])
        driver.model.noteExecutor(queuedJobs: 1, isQuiet: false, isClosed: false)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(0), .thread(1), .thread(2)])
        try driver.run(1)
        driver.model.noteExecutor(queuedJobs: 0, isQuiet: false, isClosed: false)
        driver.arrive(1, .takeJob)
        try driver.run(2)
        driver.arrive(2, .takeJob)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(0), .thread(2)])
        // Quiet but open, the lanes may still be given jobs; closed too, they may exit.
        driver.model.noteExecutor(queuedJobs: 0, isQuiet: true, isClosed: false)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(0), .thread(2)])
        driver.model.noteExecutor(queuedJobs: 0, isQuiet: true, isClosed: true)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(0), .thread(1), .thread(2)])
    }

    @Test("a thread waiting for tasks goes on only once the executor is quiet, and waits for good as the harness's")
    func awaitTasksWaitsForQuiet() throws {
        var driver = try ModelDriver(threads: 2)
        driver.arrive(0, .awaitTasks)
        driver.arrive(1, .yield)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(1)])
        driver.model.noteExecutor(queuedJobs: 0, isQuiet: true, isClosed: false)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(0), .thread(1)])
        // Not quiet, with nothing else to run: the harness's wait is left out of the deadlock.
        driver.model.noteExecutor(queuedJobs: 0, isQuiet: false, isClosed: false)
        try driver.run(1)
        _ = driver.model.exit(1)
        let blocked = BlockedTask(task: 1, name: nil, waitsAt: nil, startedIn: nil, awaits: .continuation)
        guard case .tasksDeadlocked(let tasks) = driver.model.stuckFailure(blockedTasks: [blocked]) else {
            Issue.record("expected the tasks' deadlock, got \(driver.model.stuckFailure(blockedTasks: [blocked]))")
            return
        }
        #expect(tasks.map(\.task) == [1])
    }

    @Test("a lane of a closed, quiet executor joined between jobs runs to its end with no decision and no step")
    func retiringLane() throws {
        var driver = try ModelDriver(threads: 1)
        try driver.spawnExecutorThreads([.interchangeableLane, .interchangeableLane])
        driver.model.noteExecutor(queuedJobs: 1, isQuiet: false, isClosed: false)
        try driver.run(1)
        driver.arrive(1, .takeJob)
        #expect(!driver.model.isRetiringLane(1))
        driver.model.noteExecutor(queuedJobs: 0, isQuiet: true, isClosed: false)
        #expect(!driver.model.isRetiringLane(1))
        driver.model.noteExecutor(queuedJobs: 0, isQuiet: true, isClosed: true)
        // T1 waits between jobs, T2 has not started: both have nothing left but to exit.
        #expect(driver.model.isRetiringLane(1) && driver.model.isRetiringLane(2))
        let (steps, decisions) = (driver.model.stepCount, driver.model.decisions.count)
        driver.model.retire(1, joinedBy: 0)
        #expect(driver.pending(0) == .join(1))
        driver.model.resumeRetiringLane()
        #expect(driver.model.exitRetiringLane(2) == nil)
        #expect(driver.model.exitRetiringLane(1) == 0)
        guard case .running = driver.model.threads[0].state else {
            Issue.record("the joiner does not run again once the lane has exited")
            return
        }
        #expect(driver.model.threads[1].isFinished)
        #expect(driver.model.stepCount == steps && driver.model.decisions.count == decisions)
        // Joined: a second join is the misuse it always is.
        #expect(try driver.take(0, .join(1)) == .fails)
    }

    @Test("spawning a thread of the task executor is performed at once, without a step; a scenario's thread is not")
    func executorThreadSpawnsQuietly() throws {
        var driver = try ModelDriver(threads: 1)
        let before = driver.model.stepCount
        #expect(driver.model.performQuietly(0, .spawn, at: nil) == nil)
        driver.model.roleOfSpawnedThreads = .interchangeableLane
        let quiet = driver.model.performQuietly(0, .spawn, at: nil)
        let spawned = try #require(quiet)
        #expect(spawned.outcome == .continues && spawned.reply.createdThread == 1)
        #expect(driver.model.stepCount == before)
        #expect(driver.model.threads[1].isInterchangeableLane)
    }

    @Test("a lane's choice among queued jobs is a decision and a step on its task")
    func laneChoosesJob() throws {
        var driver = try ModelDriver(threads: 1)
        let jobs = [JobIdentity(task: 0, enqueueOrder: 0), JobIdentity(task: 1, enqueueOrder: 1)]
        let step = jobs.withUnsafeBufferPointer { driver.model.lane(0, chose: 1, among: $0) }
        #expect(
            step.kind == .chooseJob && step.choice == 1 && step.target == .queuedJob(position: 2, count: 2)
                && step.job == jobs[1])
        #expect(driver.model.decisions.last == .job(1))
    }

    // MARK: Quiescence

    @Test("a quiescing thread is no candidate; it runs once nothing else can, after every deadline, never stuck")
    func quiescence() throws {
        var driver = try ModelDriver(threads: 3)
        driver.arrive(0, .quiesce)
        try driver.take(1, .lock(Objects.m, recursive: false))
        let deadline = driver.model.clock + 50
        #expect(try driver.take(1, .wait(condition: Objects.c, mutex: Objects.m, deadline: deadline)) == .blocks)
        driver.arrive(2, .yield)
        #expect(driver.candidates(running: nil).map(\.choice) == [.thread(2), .spuriousWake(1)])
        try driver.run(2)
        _ = driver.model.exit(2)
        // T1's deadline fires first: a timed wait does not wait for good.
        #expect(driver.decide(running: nil) == .run(1))
        #expect(driver.steps.last?.kind == .advanceClock)
        _ = try driver.perform(1)
        #expect(try driver.take(1, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil)) == .blocks)
        #expect(driver.decide(running: nil) == .run(0))
        #expect(try driver.perform(0) == .continues)
        #expect(driver.steps.last?.kind == .quiesce)
        driver.model.abandonWaitingThreads()
        #expect(driver.model.isWindingDown)
        #expect(driver.model.failure == nil)
        #expect(driver.model.performWhileWindingDown(0, .join(1)) == .waitsToJoin)
        #expect(driver.model.nextToWindDown() == 1)
    }

    // MARK: Winding down

    @Test("winding down, operations never block, and threads exit lowest-numbered first, a joiner after its target")
    func windingDown() throws {
        var driver = try ModelDriver(threads: 3)
        try driver.take(1, .lock(Objects.m, recursive: false))
        driver.arrive(1, .yield)
        driver.arrive(2, .yield)
        driver.model.windDown(after: .taskThrew(error: "boom"))
        #expect(driver.model.performWhileWindingDown(0, .lock(Objects.m, recursive: false)) == .continues(.none))
        #expect(driver.model.owner(of: Objects.m) == 0)
        #expect(
            driver.model.performWhileWindingDown(0, .wait(condition: Objects.c, mutex: Objects.m, deadline: nil))
                == .continues(.waitEnded(.timedOut))
        )
        #expect(driver.model.threads[0].waitResult == .timedOut)
        #expect(driver.model.performWhileWindingDown(0, .join(2)) == .waitsToJoin)
        #expect(driver.model.nextToWindDown() == 1)
        #expect(driver.model.exit(1) == nil)
        #expect(driver.model.nextToWindDown() == 2)
        _ = driver.model.exit(2)
        #expect(driver.model.nextToWindDown() == 0)
        driver.model.returnFromJoin(0)
        #expect(driver.model.nextToWindDown() == nil)
    }
}

// MARK: Driving the model

private enum Objects {
    private final class Object: Sendable {}
    private static let objects = (Object(), Object(), Object(), Object())
    /// Two mutexes, a condition and an atomic cell.
    static let m = ObjectIdentifier(objects.0)
    static let n = ObjectIdentifier(objects.1)
    static let c = ObjectIdentifier(objects.2)
    static let x = ObjectIdentifier(objects.3)
}

private struct ModelDriverError: Error, CustomStringConvertible {
    let description: String
}

/// An ``ExecutionModel`` driven as ``Execution`` drives it, without threads: threads arrive at
/// operations when the test says, decisions run the thread the test names, and the steps the
/// model returns are kept, as the trace would keep them.
private struct ModelDriver {
    var model: ExecutionModel
    private(set) var steps: [ExecutionModel.Step] = []
    /// What each operation performed handed back to its thread, in order.
    private(set) var replies: [ExecutionModel.Reply] = []

    /// A model whose T0 started and spawned `threads - 1` threads, which all started; every
    /// thread runs (none is at a scheduling point).
    init(threads: Int, limits: Execution.Limits = Execution.Limits()) throws {
        var nothingLeft = ExecutionModel.Leftovers()
        try self.init(threads: threads, limits: limits, reusing: &nothingLeft)
    }

    /// The same, the model's state kept in the storage it takes from `leftovers`.
    init(threads: Int, limits: Execution.Limits = Execution.Limits(), reusing leftovers: inout ExecutionModel.Leftovers)
        throws
    {
        var noDecisions: [ScheduleDecision] = []
        model = ExecutionModel(limits: limits, decisionStorage: &noDecisions, reusing: &leftovers)
        try run(0)
        for thread in 1..<threads {
            try take(0, .spawn)
            try run(thread)
        }
    }

    /// The operation `thread` waits to perform; `nil` when it waits on a condition, runs or
    /// finished.
    func pending(_ thread: Int) -> PendingOperation? {
        guard case .ready(let operation, _) = model.threads[thread].state else { return nil }
        return operation
    }

    /// `thread` arrives at `operation`.
    mutating func arrive(
        _ thread: Int, _ operation: PendingOperation, at location: SeamLocation? = nil, cancellable: Bool = true
    ) {
        _ = model.arrive(thread, at: operation, location: location, cancellable: cancellable)
    }

    /// The candidates a decision would offer now, found on a copy of the model; empty when the
    /// decision would not ask for a choice.
    func candidates(running: Int?, earlyTimeoutWithin: UInt64? = nil) -> [Candidate] {
        var copy = model
        guard case .choose(let candidates, _) = copy.decide(running: running, earlyTimeoutWithin: earlyTimeoutWithin)
        else { return [] }
        return Array(candidates)
    }

    /// The candidates and the running one of a decision at `thread`'s arrival at `operation`
    /// (``ExecutionModel/decide(arriving:at:cancellable:)``), found on a copy of the model;
    /// `nil` when that decision takes the general path.
    func decisionAtArrival(_ thread: Int, _ operation: PendingOperation) -> Offered? {
        var copy = model
        guard
            case .choose(let candidates, let running)? = copy.decide(arriving: thread, at: operation, cancellable: true)
        else { return nil }
        return Offered(candidates: Array(candidates), running: running)
    }

    /// The same, of the general path: `thread` arrives, then a decision is taken with it running.
    func decisionAfterArriving(_ thread: Int, _ operation: PendingOperation) -> Offered {
        var copy = model
        _ = copy.arrive(thread, at: operation, location: nil, cancellable: true)
        guard case .choose(let candidates, let running) = copy.decide(running: thread, earlyTimeoutWithin: nil) else {
            return Offered(candidates: [], running: nil)
        }
        return Offered(candidates: Array(candidates), running: running)
    }

    /// What a decision offers.
    struct Offered: Equatable {
        let candidates: [Candidate]
        let running: Int?
    }

    /// Decides as the driver does, recording the model's own steps until it names a thread
    /// or ends: the choice is `choosing` when offered, else the first candidate.
    mutating func decide(running: Int?, choosing: Choice? = nil) -> ExecutionModel.Decision {
        while true {
            let step: ExecutionModel.Step
            switch model.decide(running: running, earlyTimeoutWithin: nil) {
            case .choose(let candidates, let runningCandidate):
                let choice = candidates.first { $0.choice == choosing }?.choice ?? candidates[0].choice
                switch model.take(choice, running: runningCandidate) {
                case .run(let thread): return .run(thread)
                case .tookStep: step = model.takeOwnStep()
                }
            case .tookStep:
                step = model.takeOwnStep()
            case let decision:
                return decision
            }
            steps.append(step)
        }
    }

    /// `thread` performs its pending operation; returns what it does next.
    mutating func perform(_ thread: Int) throws -> ExecutionModel.PerformOutcome {
        let performed = model.perform(thread)
        guard performed.step.thread == thread else {
            throw ModelDriverError(description: "the step of T\(thread) names T\(performed.step.thread ?? -1)")
        }
        steps.append(performed.step)
        replies.append(performed.reply)
        return performed.outcome
    }

    /// A decision runs `thread`, which performs its pending operation.
    @discardableResult
    mutating func run(_ thread: Int) throws -> ExecutionModel.PerformOutcome {
        let decision = decide(running: thread, choosing: .thread(thread))
        guard decision == .run(thread) else {
            throw ModelDriverError(description: "T\(thread) did not run: \(decision)")
        }
        return try perform(thread)
    }

    /// T0 spawns a thread of the task executor for each of `roles`, in order.
    mutating func spawnExecutorThreads(_ roles: [ThreadRecord.Role]) throws {
        for role in roles {
            model.roleOfSpawnedThreads = role
            try take(0, .spawn)
        }
        model.roleOfSpawnedThreads = .scenario
    }

    /// `thread` arrives at `operation`, which it performs at once or when a decision runs it.
    @discardableResult
    mutating func take(
        _ thread: Int,
        _ operation: PendingOperation,
        at location: SeamLocation? = nil,
        cancellable: Bool = true
    ) throws -> ExecutionModel.PerformOutcome {
        if let quiet = model.performQuietly(thread, operation, at: location) {
            replies.append(quiet.reply)
            return quiet.outcome
        }
        if model.arrive(thread, at: operation, location: location, cancellable: cancellable) == .performsAtOnce {
            return try perform(thread)
        }
        return try run(thread)
    }
}
