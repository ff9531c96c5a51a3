import Primitives
import Testing

@testable import Harness

/// What a schedule of tasks does that a schedule of threads does not, kept out of the search:
/// counted, not timed.
@Suite("Task executor: what a schedule of tasks costs")
struct TaskCostTests {
    /// A task the scenario starts is named as it is queued: no stack of it is captured (an
    /// unwind of the whole stack, three times a schedule in the actor benchmark). A task the
    /// code creates (`Task {}`) still has its stack captured, to name it by where it was made.
    @Test("only tasks the code creates have their creation stack captured")
    func creationStacks() throws {
        let captured = AtomicBox<[Int]>([])
        let report = try Harness.run(
            "creation stacks", options: ExplorationOptions(strategy: .random, schedules: 20, seed: 3)
        ) { scenario in
            for number in 0..<3 {
                scenario.task(name: "caller \(number)") {
                    guard number == 0 else { return }
                    await Task { await Task.yield() }.value
                }
            }
            scenario.joinAll()
            let sites = Execution.current?.startedServices?.creationSites.count ?? -1
            captured.update { $0.append(sites) }
            Harness.check(false, "the end")
        }
        let failure = try #require(report.failure)
        #expect(captured.load().allSatisfy { $0 == 1 }, "creation stacks captured: \(captured.load())")
        let names = Set(failure.taskNames.values)
        #expect(names.isSuperset(of: ["caller 0", "caller 1", "caller 2"]), "\(failure.taskNames)")
    }

    /// Naming a failure symbolicates its tasks' creation stacks; shrinking names every
    /// schedule it tries, and a stack is the same in each, so it is read from the debug
    /// information once.
    @Test("a task's creation stack is symbolicated once, however many shrunk schedules name it")
    func creationSymbolicatedOnce() throws {
        let stack = AtomicBox<[UInt]>([])
        let report = try Harness.run(
            "creation symbolicated once", options: ExplorationOptions(strategy: .random, schedules: 1, seed: 11)
        ) { scenario in
            let counter = SeamAtomic(0)
            for _ in 0..<2 {
                scenario.task {
                    await Task { counter.store(counter.load() + 1) }.value
                    counter.store(counter.load() + 1)
                }
            }
            scenario.joinAll()
            let sites = Execution.current?.startedServices?.creationSites.values.map(\.returnAddresses) ?? []
            stack.update { $0 = sites.first ?? [] }
            Harness.check(false, "the end")
        }
        let failure = try #require(report.failure)
        #expect(failure.shrunkFrom != nil, "no schedule was shrunk: nothing named a failure twice")
        #expect(!stack.load().isEmpty)
        #expect(ResumePointSymbols.symbolications(ofCreationStack: stack.load()) == 1)
    }
}
