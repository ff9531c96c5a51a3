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
}
