@testable import Primitives
import Testing

/// The limiter's state machine driven synchronously through the races between a grant and
/// a cancellation.
@Suite("ConcurrencyLimiter.StateMachine")
struct ConcurrencyLimiterStateMachineTests {
    @Test("a slot granted before the waiter suspends is its own even if it is then cancelled")
    func limiterGrantBeatsCancellation() async {
        var machine = ConcurrencyLimiter.StateMachine(limit: 1)
        #expect(machine.enter() == .runBody)
        guard case .suspend(let id) = machine.enter() else {
            Issue.record("a second task entered a limiter of 1")
            return
        }
        #expect(machine.exit() == nil)
        #expect(machine.cancelled(id) == nil)
        #expect(machine.inFlight == 1)
        #expect(await waiterOutcome { machine.suspended(id, $0) } == .granted)
        #expect(machine.exit() == nil)
        #expect(machine.inFlight == 0)
    }

    @Test("a waiter cancelled before its grant takes no slot")
    func limiterCancellationBeatsGrant() async {
        var machine = ConcurrencyLimiter.StateMachine(limit: 1)
        #expect(machine.enter() == .runBody)
        guard case .suspend(let id) = machine.enter() else {
            Issue.record("a second task entered a limiter of 1")
            return
        }
        #expect(machine.cancelled(id) == nil)
        #expect(machine.waitingCount == 0)
        #expect(machine.exit() == nil)
        #expect(machine.inFlight == 0)
        #expect(await waiterOutcome { machine.suspended(id, $0) } == .cancelled)
        #expect(machine.inFlight == 0)
        #expect(machine.enter() == .runBody)
    }
}
