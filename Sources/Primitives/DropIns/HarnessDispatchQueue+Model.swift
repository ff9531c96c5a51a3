/// A dispatch queue as a harness sees it, built on seam operations: blocks start in the
/// order they were submitted; an exclusive block (every block of a serial queue, a barrier
/// on a concurrent one) starts once all blocks before it have finished and runs alone;
/// other blocks of a concurrent queue run side by side.
///
/// Each submission takes a ticket; a block starts when its ticket is the next to start and
/// the rules above allow it. Which thread runs the block does not matter to the model: the
/// caller for `sync`, a controlled thread of its own for `async`.
final class DispatchQueueModel: @unchecked Sendable {
    private let mutex = SeamMutex()
    private let turn = SeamCondition()
    /// The ticket the next submission takes.
    private var nextTicket = 0
    /// The ticket of the next block to start.
    private var nextToStart = 0
    /// Blocks running that are not exclusive.
    private var running = 0
    /// Whether an exclusive block is running.
    private var exclusiveRunning = false

    /// The seam objects that carry out the queue's calls, which reports show as the calls.
    var insides: [AnyObject] { [mutex, turn] }

    /// Takes the next ticket: the block's place in the queue.
    func submit(file: StaticString, line: UInt) -> Int {
        mutex.withLock(file: file, line: line) {
            defer { nextTicket += 1 }
            return nextTicket
        }
    }

    /// Runs `work` as the block holding `ticket`, when the queue's rules let it start.
    func run<Result>(ticket: Int, exclusive: Bool, file: StaticString, line: UInt, _ work: () throws -> Result) rethrows
        -> Result
    {
        mutex.withLock(file: file, line: line) {
            turn.wait(
                on: mutex,
                until: {
                    nextToStart == ticket && !exclusiveRunning && (!exclusive || running == 0)
                }, file: file, line: line)
            nextToStart += 1
            if exclusive { exclusiveRunning = true } else { running += 1 }
            turn.broadcast(file: file, line: line)
        }
        defer {
            mutex.withLock(file: file, line: line) {
                if exclusive { exclusiveRunning = false } else { running -= 1 }
                turn.broadcast(file: file, line: line)
            }
        }
        return try work()
    }
}
