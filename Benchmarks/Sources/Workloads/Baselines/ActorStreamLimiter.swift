/// The design the seed document describes for limiting concurrency, re-implemented as the
/// baseline for `ConcurrencyLimiter`: an actor counts the bodies in flight and keeps the
/// waiters in FIFO order, and every admission, immediate or not, makes a fresh
/// `AsyncStream` whose finishing is the permission to run. Entering and leaving are each an
/// actor call. (Its cancellation defects are irrelevant to a benchmark that never cancels.)
final class ActorStreamLimiter: Sendable {
    private let slots: SlotCounter

    init(concurrency: Int) {
        slots = SlotCounter(concurrency: concurrency)
    }

    func run<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        let permission = await slots.admit()
        for await _ in permission {}
        do {
            let result = try await body()
            await slots.release()
            return result
        } catch {
            await slots.release()
            throw error
        }
    }
}

/// The actor of ``ActorStreamLimiter``: how many bodies run, and who waits.
private actor SlotCounter {
    private let concurrency: Int
    private var inFlight = 0
    private var waiting: [AsyncStream<Void>.Continuation] = []

    init(concurrency: Int) {
        self.concurrency = concurrency
    }

    /// A stream that finishes when the caller may run: at once if a slot is free.
    func admit() -> AsyncStream<Void> {
        let (permission, grant) = AsyncStream<Void>.makeStream()
        if inFlight < concurrency {
            inFlight += 1
            grant.finish()
        } else {
            waiting.append(grant)
        }
        return permission
    }

    /// Gives a slot back, handing it to the longest waiter if there is one.
    func release() {
        inFlight -= 1
        guard inFlight < concurrency, !waiting.isEmpty else { return }
        inFlight += 1
        waiting.removeFirst().finish()
    }
}
