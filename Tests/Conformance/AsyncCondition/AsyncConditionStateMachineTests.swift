@testable import Primitives
import Testing

/// The condition's state machine driven synchronously.
@Suite("AsyncCondition.StateMachine")
struct AsyncConditionStateMachineTests {
    @Test("a signal releases waiters, registered or not, and later waits proceed")
    func conditionSignal() async {
        var machine = AsyncCondition.StateMachine()
        guard case .suspend(let early) = machine.wait() else {
            Issue.record("an unsignalled condition let a waiter through")
            return
        }
        #expect(machine.waiterCount == 1)
        #expect(machine.signal().isEmpty)
        #expect(machine.signal().isEmpty)
        #expect(machine.isSignalled)
        #expect(machine.waiterCount == 0)
        #expect(machine.wait() == .proceed)
        #expect(await waiterOutcome { machine.suspended(early, $0) } == .granted)
    }
}
