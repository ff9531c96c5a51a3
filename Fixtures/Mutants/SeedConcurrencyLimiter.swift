import Primitives

/// A concurrency limiter with one of the seed's defects (or a lost wake-up), built like
/// the seed: a counter, and a queue of waiters each resumed to admit it.
public final class SeedConcurrencyLimiter: AsyncLimiting, @unchecked Sendable {
    /// Which defect this limiter has.
    public enum Defect: Sendable {
        /// 12: a task cancelled while waiting leaves at once, runs its body without a slot,
        /// then gives back a slot it never took; its queue entry stays, and later admits a
        /// task that no longer exists.
        case cancelledWaiterRuns
        /// 13: when the owner lets go of the limiter, every waiter is released without a slot.
        case releaseAdmitsWaiters
        /// A finishing body wakes the next waiter only when more than one waits.
        case lostWakeup
    }

    private final class Waiter: @unchecked Sendable {
        var continuation: UnsafeContinuation<Void, any Error>?
        var cancelled = false
    }

    private let defect: Defect
    private let limit: Int
    private let mutex = SeamMutex()
    private var inFlight = 0
    private var waiters: [Waiter] = []

    /// A limiter of `concurrency` slots with `defect`.
    public init(_ defect: Defect, concurrency: Int) {
        self.defect = defect
        limit = concurrency
    }

    public var inFlightCount: Int { mutex.withLock { inFlight } }
    public var waitingCount: Int { mutex.withLock { waiters.count } }

    public func ownerReleased() {
        guard defect == .releaseAdmitsWaiters else { return }
        let released = mutex.withLock {
            defer { waiters = [] }
            return waiters.compactMap(\.continuation)
        }
        for continuation in released { Seam.resume(continuation, with: .success(())) }
    }

    public func run(_ body: @Sendable () async throws -> Void) async throws {
        let waiter: Waiter? = mutex.withLock {
            if inFlight < limit {
                inFlight += 1
                return nil
            }
            let waiter = Waiter()
            waiters.append(waiter)
            return waiter
        }
        if let waiter {
            do {
                try await wait(waiter)
            } catch {
                guard defect == .cancelledWaiterRuns else { throw error }
                try await body()
                mutex.withLock { inFlight -= 1 }
                throw error
            }
        }
        try await body()
        exit()
    }

    private func wait(_ waiter: Waiter) async throws {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let cancelledEarly = mutex.withLock {
                    waiter.continuation = continuation
                    return waiter.cancelled
                }
                if cancelledEarly { Seam.resume(continuation, with: .failure(CancellationError())) }
            }
        } onCancel: {
            Seam.withoutPreemption { cancel(waiter) }
        }
    }

    private func cancel(_ waiter: Waiter) {
        let continuation: UnsafeContinuation<Void, any Error>? = mutex.withLock {
            guard !waiter.cancelled, waiters.contains(where: { $0 === waiter }) else { return nil }
            waiter.cancelled = true
            if defect != .cancelledWaiterRuns { waiters.removeAll { $0 === waiter } }
            defer { waiter.continuation = nil }
            return waiter.continuation
        }
        if let continuation { Seam.resume(continuation, with: .failure(CancellationError())) }
    }

    private func exit() {
        let next: UnsafeContinuation<Void, any Error>?? = mutex.withLock {
            let wakes = defect == .lostWakeup ? waiters.count > 1 : !waiters.isEmpty
            guard wakes else {
                inFlight -= 1
                return nil
            }
            let waiter = waiters.removeFirst()
            return .some(waiter.cancelled ? nil : waiter.continuation)
        }
        if case .some(let continuation?) = next { Seam.resume(continuation, with: .success(())) }
    }
}
