import Harness
import Primitives
import Testing

/// What one execution guarantees of the objects its threads use.
@Suite("Harness: one execution")
struct ExecutionTests {
    @Test("an object freed during an execution lends its address to no other: each new cell gets a name of its own")
    func freedObjectsKeepTheirNames() throws {
        let report = try Harness.run("fresh cells", options: ExplorationOptions(schedules: 1)) { _ in
            // Each cell is freed before the next is allocated, at the same address unless
            // the execution keeps it alive.
            for _ in 0..<3 {
                SeamAtomic(0).store(1)
            }
            Harness.check(false, "the failure carries the trace")
        }
        let trace = try #require(report.failure).trace
        let cells = trace.filter { $0.location?.fileID == "Conformance/ExecutionTests.swift" }.compactMap(\.target)
        #expect(cells == (1...3).map { .object(SharedObject(.atomic, $0)) })
    }

    @Test("the objects an execution kept alive are freed before the next begins, though its storage is kept for it")
    func objectsFreedBetweenExecutions() throws {
        /// The cell the execution before made, weakly.
        struct Made: @unchecked Sendable {
            weak var cell: SeamAtomic<Int>?
        }
        let made = AtomicBox(Made())
        let lingered = AtomicBox(0)
        let schedules = 50
        let report = try Harness.run("freed cells", options: ExplorationOptions(schedules: schedules)) { scenario in
            if made.load().cell != nil { lingered.update { $0 += 1 } }
            let cell = SeamAtomic(0)
            scenario.spawn { cell.store(1) }
            scenario.joinAll()
            made.store(Made(cell: cell))
        }
        #expect(report.failure == nil && report.schedulesRun == schedules)
        #expect(lingered.load() == 0, "\(lingered.load()) of \(schedules) executions began with the cell before alive")
    }

    /// Its threads start, wait for jobs and exit, and `joinAll()` waits for the tasks, in the scheduler.
    @Test("the task executor's bookkeeping takes no step but a lane's start and the end of joinAll()'s wait")
    func executorBookkeepingTakesNoStep() throws {
        for lanes in [1, 2] {
            // Exhaustive search without preemptions: one schedule, as nothing else can choose.
            let options = ExplorationOptions(
                strategy: .exhaustive(preemptionBound: 0), schedules: 10, executorLanes: lanes)
            let report = try Harness.run("one empty task", options: options) { scenario in
                scenario.task {}
                scenario.joinAll()
            }
            #expect(report.failure == nil && report.exhausted && report.schedulesRun == 1, "\(lanes) lane(s)")
            // T0's start, its job queued, the lane's start, the end of T0's wait, T0's exit:
            // no spawn, no wait of a lane, no lane's exit and no join of one.
            #expect(report.coverage.maxSteps == 5, "\(lanes) lane(s)")
            let failed = try Harness.run("one empty task, then a failed check", options: options) { scenario in
                scenario.task {}
                scenario.joinAll()
                Harness.check(false, "the failure carries the trace")
            }
            let trace = try #require(failed.failure).trace
            #expect(
                trace.map { "T\($0.thread ?? -1) \($0.kind)" } == [
                    "T0 start", "T0 schedules", "T1 start", "T0 await-tasks"
                ],
                "\(lanes) lane(s)")
        }
    }

    @Test("an execution numbers its tasks from 1 and names them, whatever executions ran before it")
    func tasksNumberedAfresh() throws {
        let executions = AtomicBox(0)
        // Without preemptions, so that the failure is reported as it ran, not shrunk on a
        // fresh execution.
        let options = ExplorationOptions(strategy: .exhaustive(preemptionBound: 0), schedules: 10)
        let report = try Harness.run("tasks numbered", options: options) { scenario in
            let counter = SeamAtomic(0)
            scenario.task(name: "first") { counter.store(counter.load() + 1) }
            scenario.task(name: "second") { counter.store(counter.load() + 1) }
            scenario.joinAll()
            let execution = executions.update { count in
                count += 1
                return count
            }
            Harness.check(execution < 2, "the second execution fails")
        }
        let failure = try #require(report.failure)
        #expect(failure.preemptions == 0)
        #expect(Set(failure.trace.compactMap(\.task)) == [1, 2])
        #expect(failure.taskNames[1] == "first" && failure.taskNames[2] == "second")
    }

    @Test("a task started without a name has none while it runs, as outside the harness; reports name it by its line")
    func unnamedTaskNamedByItsLine() throws {
        let runtimeNames = AtomicBox<[String?]>([])
        let unnamedLine = #line + 3
        let options = ExplorationOptions(strategy: .exhaustive(preemptionBound: 0), schedules: 1)
        let report = try Harness.run("task names", options: options) { scenario in
            scenario.task { runtimeNames.update { $0.append(Task.name) } }
            scenario.joinAll()
            scenario.task(name: "given") { runtimeNames.update { $0.append(Task.name) } }
            scenario.joinAll()
            Harness.check(false, "the failure carries the names")
        }
        // The failing execution, and the same schedule run again to read the tasks' stacks for
        // the report: each saw the names.
        #expect(runtimeNames.load() == [nil, "given", nil, "given"])
        let failure = try #require(report.failure)
        #expect(failure.taskNames == [1: "ExecutionTests.swift:\(unnamedLine)", 2: "given"], "\(failure.taskNames)")
    }
}
