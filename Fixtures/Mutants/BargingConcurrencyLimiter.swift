import Primitives

/// A concurrency limiter that admits out of order: a finishing body gives its slot back to
/// the pool and wakes the task that waited longest, which must then take a slot like a
/// newcomer. A task that arrives meanwhile takes the slot first (it barges), and the woken
/// task queues again, at the back. Tasks that are all queued before a slot comes back
/// (``AsyncScenarios/limiterIsFIFO(_:)``) are still admitted in order. Cancellation of a
/// waiting task is not handled.
public final class BargingConcurrencyLimiter: AsyncLimiting, @unchecked Sendable {
    private final class Waiter: @unchecked Sendable {
        var continuation: UnsafeContinuation<Void, Never>?
        var woken = false
    }

    private let limit: Int
    private let mutex = SeamMutex()
    private var inFlight = 0
    private var waiters: [Waiter] = []

    /// A limiter of `concurrency` slots.
    public init(concurrency: Int) {
        limit = concurrency
    }

    public var inFlightCount: Int { mutex.withLock { inFlight } }
    public var waitingCount: Int { mutex.withLock { waiters.count } }
    public func ownerReleased() {}

    public func run(_ body: @Sendable () async throws -> Void) async throws {
        while true {
            let waiter: Waiter? = mutex.withLock {
                if inFlight < limit {
                    inFlight += 1
                    return nil
                }
                let waiter = Waiter()
                waiters.append(waiter)
                return waiter
            }
            guard let waiter else { break }
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let woken = mutex.withLock {
                    if !waiter.woken { waiter.continuation = continuation }
                    return waiter.woken
                }
                if woken { Seam.resume(continuation, with: .success(())) }
            }
        }
        do {
            try await body()
        } catch {
            exit()
            throw error
        }
        exit()
    }

    /// The defect: the slot goes back to the pool, and the longest waiter is only woken.
    private func exit() {
        let next: UnsafeContinuation<Void, Never>? = mutex.withLock {
            inFlight -= 1
            guard !waiters.isEmpty else { return nil }
            let waiter = waiters.removeFirst()
            waiter.woken = true
            defer { waiter.continuation = nil }
            return waiter.continuation
        }
        if let next { Seam.resume(next, with: .success(())) }
    }
}
