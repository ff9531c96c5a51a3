extension ReadWriteCoordinator {
    /// The coordinator's state, changed only under its mutex. Each event is a `mutating`
    /// function returning what the caller must do after unlocking; user blocks never run
    /// here.
    ///
    /// Reads that need not wait come in through the ``ReadGate`` without reaching the state
    /// machine, which keeps the gate open only while no write runs and no request waits. A
    /// write closes it; the readers inside then count as one reader, whose
    /// ``readFinished()`` the last of them to leave reports. The gate stays closed after the
    /// writes until a reader finds it closed although it need not wait: that reader opens it
    /// and comes in through it, so writes in a row pay for closing it once.
    ///
    /// Requests that cannot start at once wait in `pending`, in submission order.
    /// Readers that arrive one after another without a write between them form one
    /// ``Request/readers(ticket:count:)`` group and are admitted together. Readers and
    /// synchronous writers wait for their ticket to be admitted; asynchronous writes are
    /// handed, as ``Action/runWrite(_:)``, to whichever thread made them runnable.
    struct StateMachine {
        /// Identifies a waiting group of readers or a waiting synchronous writer. Tickets
        /// increase in submission order, and requests are admitted in that order.
        typealias Ticket = UInt64

        private enum Phase: CustomStringConvertible {
            /// Nobody is inside but readers that came in through the gate, if it is open;
            /// nothing is pending.
            case idle
            /// `activeReaders` readers are inside read blocks: threads admitted here, and
            /// those that were inside the gate when it closed, as one; if anything is
            /// pending, its head is a write waiting for them to leave.
            case reading(activeReaders: Int)
            /// One thread is running a write block (its own, or an enqueued one).
            case writing

            var description: String {
                switch self {
                case .idle: "idle"
                case .reading(let activeReaders): "reading(\(activeReaders))"
                case .writing: "writing"
                }
            }
        }

        /// A request waiting for its turn.
        enum Request {
            /// Readers blocked in `read(_:)`, admitted together.
            case readers(ticket: Ticket, count: Int)
            /// A thread blocked in `write(_:)`.
            case synchronousWrite(ticket: Ticket)
            /// A block from `enqueueWrite(_:)`; nobody waits for it.
            case asynchronousWrite(@Sendable () -> Void)
        }

        /// Whether a request could start at once or must wait for its ticket.
        enum Admission {
            /// The caller is inside; it runs its block and reports it finished here.
            case admitted
            /// A reader only: the caller is inside the gate, which was opened for it; it runs
            /// its block and leaves through the gate.
            case admittedThroughGate
            /// The caller waits until ``StateMachine/isAdmitted(_:)`` holds for this ticket.
            case queued(Ticket)
        }

        /// What the caller does after unlocking.
        enum Action {
            /// Nothing.
            case none
            /// Broadcast: a waiting reader group or synchronous writer has been admitted.
            case wakeWaiters
            /// Run this enqueued write block, exclusively, then report ``writeFinished()``.
            case runWrite(@Sendable () -> Void)
        }

        private var phase = Phase.idle
        private var pending = PendingRequests()
        /// The way in for reads that need not wait, shared with the coordinator's readers.
        private let gate: ReadGate
        /// Whether `gate` is open; only while no write runs and nothing is pending.
        private var gateIsOpen = true
        private var nextTicket: Ticket = 1
        /// Every ticket up to this one has been admitted.
        private var admittedThrough: Ticket = 0

        /// A coordinator's state with nothing running and nothing queued, `gate` open.
        init(gate: ReadGate) {
            self.gate = gate
        }

        /// Whether the request holding `ticket` has been admitted.
        func isAdmitted(_ ticket: Ticket) -> Bool { ticket <= admittedThrough }

        /// A thread outside the coordinator that found the gate closed asks to read. Unless a
        /// write is running or pending, it enters at once: through the gate, which it opens,
        /// or admitted here if the gate has opened meanwhile. Otherwise it joins the group of
        /// readers at the tail of the queue, or starts one.
        mutating func readRequested() -> Admission {
            defer { checkInvariants() }
            if readsNeedNotWait {
                guard gateIsOpen else {
                    gate.openAndEnter()
                    gateIsOpen = true
                    return .admittedThroughGate
                }
                addActiveReader()
                return .admitted
            }
            if case .readers(let ticket, let count)? = pending.last {
                pending.replaceLast(with: .readers(ticket: ticket, count: count + 1))
                return .queued(ticket)
            }
            let ticket = takeTicket()
            pending.append(.readers(ticket: ticket, count: 1))
            return .queued(ticket)
        }

        /// A thread outside the coordinator asks to write and waits until it may.
        mutating func writeRequested() -> Admission {
            defer { checkInvariants() }
            closeGate()
            if case .idle = phase {
                phase = .writing
                return .admitted
            }
            let ticket = takeTicket()
            pending.append(.synchronousWrite(ticket: ticket))
            return .queued(ticket)
        }

        /// Any thread enqueues a write. When the coordinator is idle the caller runs it at
        /// once; otherwise it waits its turn behind everything submitted before it.
        mutating func writeEnqueued(_ body: @escaping @Sendable () -> Void) -> Action {
            defer { checkInvariants() }
            closeGate()
            if case .idle = phase {
                phase = .writing
                return .runWrite(body)
            }
            pending.append(.asynchronousWrite(body))
            return .none
        }

        /// An admitted reader leaves, or the last of the readers that were inside the gate when
        /// it closed. The last one out admits what waits.
        mutating func readFinished() -> Action {
            defer { checkInvariants() }
            guard case .reading(let activeReaders) = phase else {
                preconditionFailure("ReadWriteCoordinator: a read finished while \(phase)")
            }
            guard activeReaders == 1 else {
                phase = .reading(activeReaders: activeReaders - 1)
                return .none
            }
            return admitNext()
        }

        /// The running write block (synchronous or enqueued) has finished; admits what waits.
        mutating func writeFinished() -> Action {
            defer { checkInvariants() }
            guard case .writing = phase else {
                preconditionFailure("ReadWriteCoordinator: a write finished while \(phase)")
            }
            return admitNext()
        }

        /// Admits the head of the queue, nobody being inside.
        private mutating func admitNext() -> Action {
            switch pending.popFirst() {
            case nil:
                phase = .idle
                return .none
            case .readers(let ticket, let count)?:
                phase = .reading(activeReaders: count)
                admittedThrough = ticket
                return .wakeWaiters
            case .synchronousWrite(let ticket)?:
                phase = .writing
                admittedThrough = ticket
                return .wakeWaiters
            case .asynchronousWrite(let body)?:
                phase = .writing
                return .runWrite(body)
            }
        }

        /// Whether no write runs and nothing is pending: a reader may enter at once.
        private var readsNeedNotWait: Bool {
            if case .writing = phase { return false }
            return pending.isEmpty
        }

        /// Closes the gate, if open, before a write is requested or enqueued; the readers
        /// inside count as one reader from now on.
        private mutating func closeGate() {
            guard gateIsOpen else { return }
            gateIsOpen = false
            if gate.close() > 0 { addActiveReader() }
        }

        /// Counts one more reader inside: a thread admitted here, or the readers inside the
        /// gate as it closes. No write may be running.
        private mutating func addActiveReader() {
            switch phase {
            case .idle:
                phase = .reading(activeReaders: 1)
            case .reading(let activeReaders):
                phase = .reading(activeReaders: activeReaders + 1)
            case .writing:
                preconditionFailure("ReadWriteCoordinator: a reader let in during a write")
            }
        }

        private mutating func takeTicket() -> Ticket {
            defer { nextTicket += 1 }
            return nextTicket
        }

        /// Checks, in debug builds, what the phases promise about the queue and the gate.
        private func checkInvariants() {
            assert(
                !gateIsOpen || readsNeedNotWait,
                "ReadWriteCoordinator: the read gate is open while \(phase) or requests wait")
            switch phase {
            case .idle:
                assert(pending.isEmpty, "ReadWriteCoordinator: idle with requests pending")
            case .reading(let activeReaders):
                assert(activeReaders > 0, "ReadWriteCoordinator: reading with no reader")
                if case .readers? = pending.first {
                    assertionFailure("ReadWriteCoordinator: readers wait behind active readers")
                }
            case .writing:
                break
            }
        }
    }
}
