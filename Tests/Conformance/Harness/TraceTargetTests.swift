@testable import Harness
import Primitives
import Testing

/// What a step acts on is a value: a stall report finds where a thread was started by the
/// spawn step whose target is that thread, not by the step's words.
@Suite("Harness: a step's target is a value")
struct TraceTargetTests {
    @Test("each spawn step targets the thread it starts, and that thread's steps come after it")
    func spawnTargetsTheThread() throws {
        let report = try Harness.run("spawn targets", options: ExplorationOptions(schedules: 1)) { scenario in
            for _ in 0..<2 { scenario.spawn { SeamAtomic(0).store(1) } }
            scenario.joinAll()
            Harness.check(false, "keep the trace")
        }
        let trace = try #require(report.failure).trace
        let spawns = trace.enumerated().filter { $0.element.kind == .spawn }
        #expect(spawns.map(\.element.target) == [.thread(1), .thread(2)])
        for (index, spawn) in spawns {
            guard case .thread(let thread) = spawn.target else { continue }
            let first = try #require(trace.firstIndex { $0.thread == thread })
            #expect(first > index, "T\(thread) took a step before the step that started it")
        }
    }
}
