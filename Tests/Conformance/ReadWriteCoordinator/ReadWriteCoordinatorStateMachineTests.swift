@testable import Primitives
import Testing

/// The coordinator's state machine and its read gate driven on one thread: who waits for
/// the readers that came in through the gate, and when the gate opens again.
@Suite("ReadWriteCoordinator.StateMachine")
struct ReadWriteCoordinatorStateMachineTests {
    private let gate = ReadWriteCoordinator.ReadGate()

    @Test("the readers inside the gate when a write arrives count as one; the last of them out admits it")
    func gateReadersHoldOffAWrite() throws {
        var machine = ReadWriteCoordinator.StateMachine(gate: gate)
        #expect(gate.tryEnter() && gate.tryEnter(), "the gate of an idle coordinator is closed")
        guard case .queued(let ticket) = machine.writeRequested() else {
            Issue.record("a write was admitted while readers were inside the gate")
            return
        }
        #expect(!gate.tryEnter(), "a reader came in through the gate behind a waiting write")
        #expect(!gate.leave(), "the first of two readers out counted as the last")
        #expect(gate.leave(), "the last reader out of the closed gate was not told so")
        #expect(!machine.isAdmitted(ticket))
        guard case .wakeWaiters = machine.readFinished() else {
            Issue.record("the last gate reader out did not wake the waiting write")
            return
        }
        #expect(machine.isAdmitted(ticket))
    }

    @Test("writes leave the gate closed until a reader that need not wait opens it and comes in through it")
    func firstReaderAfterWritesOpensTheGate() {
        var machine = ReadWriteCoordinator.StateMachine(gate: gate)
        for _ in 0..<2 {
            guard case .admitted = machine.writeRequested() else {
                Issue.record("a write to an idle coordinator waited")
                return
            }
            guard case .none = machine.writeFinished() else {
                Issue.record("a write finished with nothing pending asked for an action")
                return
            }
        }
        #expect(!gate.tryEnter(), "the gate opened before any reader asked")
        guard case .admittedThroughGate = machine.readRequested() else {
            Issue.record("the first reader after the writes did not come in through the gate")
            return
        }
        #expect(gate.tryEnter(), "the gate is still closed after the first reader opened it")
        guard case .none = machine.writeEnqueued({}) else {
            Issue.record("an enqueued write ran while readers were inside the gate")
            return
        }
        #expect(!gate.leave())
        #expect(gate.leave())
        guard case .runWrite = machine.readFinished() else {
            Issue.record("the last gate reader out did not hand over the enqueued write")
            return
        }
    }

    @Test("a reader that finds the gate closed queues behind a waiting write, with the readers after it")
    func readersQueueBehindAWaitingWrite() {
        var machine = ReadWriteCoordinator.StateMachine(gate: gate)
        #expect(gate.tryEnter())
        guard case .queued(let write) = machine.writeRequested(),
            case .queued(let first) = machine.readRequested(),
            case .queued(let second) = machine.readRequested()
        else {
            Issue.record("a request was admitted past readers inside the gate")
            return
        }
        #expect(first == second && write < first)
        #expect(gate.leave())
        _ = machine.readFinished()
        #expect(machine.isAdmitted(write) && !machine.isAdmitted(first))
        _ = machine.writeFinished()
        #expect(machine.isAdmitted(first))
        #expect(!gate.tryEnter(), "the gate opened without a reader asking")
    }
}
