import Primitives

/// Records a ``History`` from threads or tasks that call a shared object concurrently: each
/// call's invocation and response get a position from one counter, in the order they are
/// recorded.
///
/// Record the invocation just before the call and the response just after it (``record(_:client:_:)``
/// does both): the recorded span then contains the real one, so an operation that really
/// finished before another began is recorded that way, and the checker never sees an order
/// that did not happen. Spans recorded wider than the real ones only make operations look
/// more concurrent: the checker may then accept a history that a tighter recording would
/// reject, but it never rejects a correct one.
///
/// Thread-safe: a pthread mutex guards the history, held only to append an event, and taken
/// past the seam, so under the harness recording is not a scheduling point and the harness
/// cannot see it; that is what a recorder wants (it must not change the schedules it
/// observes), and it is safe because the lock is never held for more than an append, so a
/// controlled thread never blocks on it for long. (Not a `Synchronization.Mutex`: under
/// contention that one hands over where ThreadSanitizer cannot see it, and recording from
/// real threads under TSan reported the appends as racing.) A call whose thread dies or
/// whose run is cut short before its response stays pending in ``history``.
public final class HistoryRecorder<Operation: Sendable, Result: Sendable>: @unchecked Sendable {
    private let mutex = SeamMutex()
    private var recorded = History<Operation, Result>()

    /// A recorder with an empty history.
    public init() {}

    /// Records that `client` invoked `operation` and returns the entry's index, for
    /// ``respond(_:with:)``.
    public func invoke(_ operation: Operation, client: Int) -> Int {
        mutex.withLockDirectly { recorded.invoke(operation, client: client) }
    }

    /// Records that the call at `entry` returned `result`. Traps if it already returned.
    public func respond(_ entry: Int, with result: Result) {
        mutex.withLockDirectly { recorded.respond(entry, with: result) }
    }

    /// Records `operation` around `body`: the invocation before it, its result after it.
    /// If `body` never returns, the call stays pending. Returns what `body` returned.
    @discardableResult
    public func record(_ operation: Operation, client: Int, _ body: () -> Result) -> Result {
        let entry = invoke(operation, client: client)
        let result = body()
        respond(entry, with: result)
        return result
    }

    /// Records `operation` around `body`, which may suspend. Returns what `body` returned.
    @discardableResult
    public func record(
        _ operation: Operation,
        client: Int,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async -> Result
    ) async -> Result {
        let entry = invoke(operation, client: client)
        let result = await body()
        respond(entry, with: result)
        return result
    }

    /// Records `operation` around a `body` that may throw: the recorded result is
    /// `.success(value)` or `.failure(error)`, and the error is rethrown.
    @discardableResult
    public func record<Success, Failure: Error>(
        _ operation: Operation,
        client: Int,
        _ body: () throws(Failure) -> Success
    ) throws(Failure) -> Success where Result == Swift.Result<Success, Failure> {
        let entry = invoke(operation, client: client)
        let result = Swift.Result(catching: body)
        respond(entry, with: result)
        return try result.get()
    }

    /// Records `operation` around a `body` that may suspend and throw: the recorded result is
    /// `.success(value)` or `.failure(error)`, and the error is rethrown.
    @discardableResult
    public func record<Success, Failure: Error>(
        _ operation: Operation,
        client: Int,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> Success
    ) async throws(Failure) -> Success where Result == Swift.Result<Success, Failure> {
        let entry = invoke(operation, client: client)
        let result: Swift.Result<Success, Failure>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        respond(entry, with: result)
        return try result.get()
    }

    /// The history so far: calls still in flight are pending in it.
    public var history: History<Operation, Result> {
        mutex.withLockDirectly { recorded }
    }
}
