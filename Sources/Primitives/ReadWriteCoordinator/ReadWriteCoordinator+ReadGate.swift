extension ReadWriteCoordinator {
    /// The way in for reads that need not wait: while it is open, a reader enters and leaves
    /// with one atomic read-modify-write each and never takes the mutex.
    ///
    /// One word: its top bit says the gate is closed, the bits below count the readers inside
    /// that came in through it. Only the ``StateMachine``, under the mutex, closes and opens
    /// it: it is open only while no write runs and no request waits. Readers only count
    /// themselves in, while it is open, and out. The readers inside when it closes go on
    /// counting as one reader of the state machine, whose read the last of them to leave
    /// reports finished (``leave()`` tells it that it is the last).
    ///
    /// Each operation is a ``SeamAtomic`` operation: one scheduling point under a harness.
    @usableFromInline
    struct ReadGate {
        @inlinable
        static var closed: UInt64 { 1 << 63 }

        @usableFromInline
        let word = SeamAtomic<UInt64>(0)

        /// An open gate with nobody inside.
        init() {}

        /// Counts the caller in if the gate is open; returns whether it did.
        @inlinable
        func tryEnter() -> Bool {
            var inside: UInt64 = 0
            while true {
                let (entered, found) = word.compareExchange(expected: inside, desired: inside + 1)
                if entered { return true }
                if found & Self.closed != 0 { return false }
                inside = found
            }
        }

        /// Counts out a caller that entered through the gate. Returns `true` when the gate is
        /// closed and the caller was the last reader inside: the reader the state machine
        /// counts for them has finished.
        @inlinable
        func leave() -> Bool {
            let (remaining, _) = word.update { value in
                value -= 1
                return value
            }
            return remaining == Self.closed
        }

        /// Closes the open gate; returns how many readers are inside.
        func close() -> Int {
            let before = word.setBits(Self.closed)
            assert(before & Self.closed == 0, "ReadWriteCoordinator: closing a closed read gate")
            return Int(before)
        }

        /// Opens the gate, which is closed with nobody inside, and counts the caller in.
        func openAndEnter() {
            let before = word.exchange(1)
            assert(
                before == Self.closed,
                "ReadWriteCoordinator: opening a read gate whose word is \(before), not closed and empty")
        }
    }
}
